import { RpcError } from "@mysten/sui/grpc"
import type { SuiClientTypes } from "@mysten/sui/client"
import { Unavailable } from "@gateway/domain/Errors"
import type { GasUsed } from "@gateway/domain/sponsorship/GasBudget"

/** How the gateway reads the node's answers when it simulates and executes its own transactions (sponsor, settlement). */

export const messageOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

/** The node could not be reached or failed: an outage, retried later, never the transaction's fault. */
export const chainDown = (cause: unknown) => new Unavailable({ message: "The chain could not be reached", reason: `chain: ${messageOf(cause)}` })

/** The node answered that the request itself is wrong: the transaction's fault, not an outage. */
export const refusedByNode = (cause: unknown) => cause instanceof RpcError && (cause.code === "INVALID_ARGUMENT" || cause.code === "FAILED_PRECONDITION")

export const gasOf = (effects: SuiClientTypes.TransactionEffects): GasUsed => ({
  computationCost: BigInt(effects.gasUsed.computationCost),
  storageCost: BigInt(effects.gasUsed.storageCost),
  storageRebate: BigInt(effects.gasUsed.storageRebate)
})
