import { GrpcTypes } from "@mysten/sui/grpc"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { bcs } from "@mysten/sui/bcs"
import { Effect } from "effect"
import { encodeBase64 } from "@gateway/chain/Base64"
import type { LedgerObject } from "../LedgerObject.ts"
import { LocalLedger, type SimulationRequest } from "../LocalLedger.ts"
import { GrpcFailure } from "./GrpcFailure.ts"
import { type GrpcMethod, unary } from "./GrpcMethod.ts"
import { executedTransaction, fullTransaction } from "./LedgerMethods.ts"
import { applyReadMask, maskedFields } from "./ReadMask.ts"
import { transactionFromProto } from "./TransactionProto.ts"

/** A full node's default read mask for SimulateTransaction. */
const SIMULATE_DEFAULT_MASK = ["transaction.digest", "transaction.effects.status"]

const invalid = (message: string) => new GrpcFailure({ code: "INVALID_ARGUMENT", message })

const refused = (rejected: { readonly reason: string }) => Effect.fail(invalid(rejected.reason))

/** A structured transaction made into what the ledger simulates; inputs named by id alone are read from current state. */
const simulationRequest = (request: GrpcTypes.SimulateTransactionRequest) =>
  Effect.gen(function*() {
    const transaction = request.transaction
    if (transaction === undefined) return yield* invalid("missing transaction")
    const gasSelection = request.doGasSelection ?? false
    const bytes = transaction.bcs?.value
    if (bytes !== undefined && bytes.length > 0) {
      const data = yield* Effect.try({ try: () => bcs.TransactionData.parse(bytes), catch: () => invalid("transaction bcs is not a TransactionData") })
      const tx = data.V1
      return {
        sender: normalizeSuiAddress(tx.sender),
        kind: tx.kind,
        expiration: tx.expiration,
        gasOwner: normalizeSuiAddress(tx.gasData.owner),
        payment: tx.gasData.payment,
        price: BigInt(tx.gasData.price),
        budget: BigInt(tx.gasData.budget),
        gasSelection
      } satisfies SimulationRequest
    }
    const ledger = yield* LocalLedger
    const unresolved = transaction.kind?.data.oneofKind === "programmableTransaction"
      ? transaction.kind.data.programmableTransaction.inputs.flatMap((input) =>
        input.kind === GrpcTypes.Input_InputKind.INPUT_KIND_UNKNOWN || input.kind === undefined ? (input.objectId === undefined ? [] : [input.objectId]) : []
      )
      : []
    const known = new Map<string, LedgerObject>()
    for (const id of unresolved) {
      const object = yield* ledger.getObject(id)
      if (object !== undefined) known.set(object.id, object)
    }
    const parts = yield* Effect.try({
      try: () => transactionFromProto(transaction, (id) => known.get(id)),
      catch: (error) => (error instanceof GrpcFailure ? error : invalid(String(error)))
    })
    return { ...parts, gasSelection } satisfies SimulationRequest
  })

export const executionMethods: ReadonlyArray<GrpcMethod> = [
  unary(GrpcTypes.TransactionExecutionService, "ExecuteTransaction", GrpcTypes.ExecuteTransactionRequest, GrpcTypes.ExecuteTransactionResponse, (request) =>
    Effect.gen(function*() {
      const bytes = request.transaction?.bcs?.value
      if (bytes === undefined || bytes.length === 0) return yield* invalid("ExecuteTransaction needs the transaction's bcs")
      const signatures = request.signatures.flatMap((signature) => (signature.bcs?.value === undefined ? [] : [encodeBase64(signature.bcs.value)]))
      const ledger = yield* LocalLedger
      const tx = yield* Effect.catchTag(ledger.executeSigned(encodeBase64(bytes), signatures), "LedgerRejected", refused)
      return { transaction: yield* executedTransaction(tx, request.readMask) }
    })),
  unary(GrpcTypes.TransactionExecutionService, "SimulateTransaction", GrpcTypes.SimulateTransactionRequest, GrpcTypes.SimulateTransactionResponse, (request) =>
    Effect.gen(function*() {
      const ledger = yield* LocalLedger
      const simulated = yield* Effect.catchTag(ledger.simulate(yield* simulationRequest(request)), "LedgerRejected", refused)
      const { referenceGasPrice } = yield* ledger.currentEpoch
      const transaction = yield* fullTransaction(simulated, maskedFields(request.readMask, SIMULATE_DEFAULT_MASK, "transaction"))
      const response: GrpcTypes.SimulateTransactionResponse = { transaction, commandOutputs: [], suggestedGasPrice: referenceGasPrice }
      return applyReadMask(response, request.readMask, SIMULATE_DEFAULT_MASK)
    }))
]
