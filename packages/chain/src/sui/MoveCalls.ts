import { bcs } from "@mysten/sui/bcs"
import { fromBase64, normalizeSuiAddress, toHex } from "@mysten/sui/utils"
import type { ChainMoveCall } from "@gateway/domain/chain/ChainTransaction"
import { Functions, isFunctionName, MODULE } from "@gateway/domain/chain/SpendAccountModule"
import { describePure } from "../PureArgument.ts"
import { normalizeTypeArgument } from "../TypeArgument.ts"

type SenderSignedData = ReturnType<typeof bcs.SenderSignedData.parse>
type TransactionData = SenderSignedData[number]["intentMessage"]["value"]

type ParameterKind = (typeof Functions)[keyof typeof Functions]["parameters"][number]

/** A pure argument decoded as LocalLedger's executor records it, so both adapters report the same calls. */
const decodePure = (kind: ParameterKind | undefined, bytes: Uint8Array): unknown =>
  // A function this module does not describe: the bytes as they are.
  kind === undefined ? toHex(bytes) : describePure(kind, bytes)

/** The transaction data inside `rawTransaction` (base64 `SenderSignedData`), as `showRawInput` returns it. */
export const transactionDataOf = (rawTransaction: string): TransactionData | undefined =>
  bcs.SenderSignedData.parse(fromBase64(rawTransaction))[0]?.intentMessage.value

/**
 * The Move calls of a transaction, read from its signed input: arguments that
 * are inputs resolve to object ids or decoded pure values; results of earlier
 * commands and the gas coin, which only effects could name, stay null, and so
 * do malformed pure bytes. Never throws, whatever the signer put in.
 */
export const moveCallsOf = (packageId: string, data: TransactionData): ReadonlyArray<ChainMoveCall> => {
  const pt = data.V1.kind.ProgrammableTransaction
  if (pt === undefined || pt === null) return []
  return pt.commands.flatMap((command) => {
    const call = command.MoveCall
    if (call === undefined || call === null) return []
    const ours = normalizeSuiAddress(call.package) === normalizeSuiAddress(packageId) && call.module === MODULE && isFunctionName(call.function)
    const kinds: ReadonlyArray<ParameterKind> = ours && isFunctionName(call.function) ? Functions[call.function].parameters : []
    return [{
      package: normalizeSuiAddress(call.package),
      module: call.module,
      function: call.function,
      typeArguments: call.typeArguments.map(normalizeTypeArgument),
      arguments: call.arguments.map((argument, i) => {
        if (argument.$kind !== "Input") return null
        const input = pt.inputs[argument.Input]
        if (input === undefined) return null
        if (input.Pure) return decodePure(kinds[i], fromBase64(input.Pure.bytes))
        const object = input.Object
        const id = object?.SharedObject?.objectId ?? object?.ImmOrOwnedObject?.objectId ?? object?.Receiving?.objectId
        return id === undefined ? null : normalizeSuiAddress(id)
      })
    }]
  })
}
