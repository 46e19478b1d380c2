import { cpuMs } from "./ServerProcess.ts"

/** CPU per operation in ms, for each process of a measured phase. */
export interface CpuPerOperation {
  readonly gateway: number
  readonly ledger: number
  /** This process: the owners' and agents' wallets, and the seller's upstream when a phase calls it. */
  readonly wallets: number
}

/**
 * Starts counting the CPU the gateway's and the ledger's processes (from
 * /proc) and this one (`process.cpuUsage()`) use; `per(operations)` divides
 * what each used since by the phase's operations.
 */
export const cpuMeter = (pids: { readonly gateway: number; readonly ledger: number }) => {
  const gateway = cpuMs(pids.gateway)
  const ledger = cpuMs(pids.ledger)
  const wallets = process.cpuUsage()
  return {
    per: (operations: number): CpuPerOperation => {
      const own = process.cpuUsage(wallets)
      return {
        gateway: (cpuMs(pids.gateway) - gateway) / operations,
        ledger: (cpuMs(pids.ledger) - ledger) / operations,
        wallets: (own.user + own.system) / 1000 / operations
      }
    }
  }
}
