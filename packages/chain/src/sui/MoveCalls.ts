import type { bcs } from "@mysten/sui/bcs"
import { normalizeSuiAddress, toHex } from "@mysten/sui/utils"
import type { ChainMoveCall } from "@gateway/domain/chain/ChainTransaction"
import { Functions, isFunctionName, MODULE, type SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import { decodeBase64 } from "../Base64.ts"
import { describePure } from "../PureArgument.ts"
import { normalizeTypeArgument } from "../TypeArgument.ts"

/** A transaction's data as `bcs.TransactionData` decodes it (what a node returns as the transaction's BCS). */
export type TransactionData = ReturnType<typeof bcs.TransactionData.parse>

type ParameterKind = (typeof Functions)[keyof typeof Functions]["parameters"][number]

/** A pure argument decoded as the module describes it; a function this module does not describe keeps its bytes as they are. */
const decodePure = (kind: ParameterKind | undefined, bytes: Uint8Array): unknown => kind === undefined ? toHex(bytes) : describePure(kind, bytes)

/** Calls into this package: the published-at id, or the original id (the first version, still callable). */
const isOurPackage = (pkg: SpendAccountPackage, id: string) =>
  normalizeSuiAddress(id) === normalizeSuiAddress(pkg.publishedAt) || normalizeSuiAddress(id) === normalizeSuiAddress(pkg.originalId)

/**
 * The Move calls of a transaction, read from its own commands: arguments that
 * are inputs resolve to object ids or decoded pure values; results of earlier
 * commands and the gas coin, which only effects could name, stay null, and so
 * do malformed pure bytes. Never throws, whatever the signer put in.
 */
export const moveCallsOf = (pkg: SpendAccountPackage, data: TransactionData): ReadonlyArray<ChainMoveCall> => {
  const pt = data.V1.kind.ProgrammableTransaction
  if (pt === undefined || pt === null) return []
  return pt.commands.flatMap((command) => {
    const call = command.MoveCall
    if (call === undefined || call === null) return []
    const kinds: ReadonlyArray<ParameterKind> = isOurPackage(pkg, call.package) && call.module === MODULE && isFunctionName(call.function)
      ? Functions[call.function].parameters
      : []
    return [{
      package: normalizeSuiAddress(call.package),
      module: call.module,
      function: call.function,
      typeArguments: call.typeArguments.map(normalizeTypeArgument),
      arguments: call.arguments.map((argument, i) => {
        if (argument.$kind !== "Input") return null
        const input = pt.inputs[argument.Input]
        if (input === undefined) return null
        if (input.Pure) return decodePure(kinds[i], decodeBase64(input.Pure.bytes))
        const object = input.Object
        const id = object?.SharedObject?.objectId ?? object?.ImmOrOwnedObject?.objectId ?? object?.Receiving?.objectId
        return id === undefined ? null : normalizeSuiAddress(id)
      })
    }]
  })
}
