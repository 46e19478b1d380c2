import { readFileSync } from "node:fs"

/** This machine's CPU time so far, all of it and what the hypervisor gave to others ("steal"), from /proc/stat (Linux). */
export const machineTimes = () => {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").split(/\s+/).slice(1, 9).map(Number)
  return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] ?? 0 }
}

/**
 * The share of this virtual machine's CPU time the host took back between
 * two readings: time the bench could not use, which makes absolute figures
 * move from run to run (the ratios, measured side by side, move far less).
 */
export const stealShare = (before: ReturnType<typeof machineTimes>, after: ReturnType<typeof machineTimes>) =>
  after.total === before.total ? 0 : (after.steal - before.steal) / (after.total - before.total)
