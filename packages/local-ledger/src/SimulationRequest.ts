import type { bcs } from "@mysten/sui/bcs"

type TransactionDataInput = Extract<Parameters<typeof bcs.TransactionData.serialize>[0], { V1: unknown }>["V1"]
type ObjectRef = ReturnType<typeof bcs.TransactionData.parse>["V1"]["gasData"]["payment"][number]

/** A transaction to simulate: its gas may be left for the ledger to choose, as a full node does. */
export interface SimulationRequest {
  readonly sender: string
  readonly kind: TransactionDataInput["kind"]
  readonly expiration: TransactionDataInput["expiration"]
  readonly gasOwner: string
  readonly payment: ReadonlyArray<ObjectRef>
  readonly price: bigint | undefined
  readonly budget: bigint | undefined
  /** Pick the gas owner's SUI coins and a budget from the simulated cost; otherwise an empty payment runs on a mock coin. */
  readonly gasSelection: boolean
}
