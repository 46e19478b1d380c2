import { bcs } from "@mysten/sui/bcs"
import { normalizeSuiAddress, toHex } from "@mysten/sui/utils"

export type SponsoredCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string }

const refuse = (reason: string): SponsoredCheck => ({ ok: false, reason })

const parseData = (bytes: Uint8Array) => {
  try {
    return bcs.TransactionData.parse(bytes)
  } catch {
    return undefined
  }
}

type TransactionDataV1 = ReturnType<typeof bcs.TransactionData.parse>["V1"]

/** The last epoch the transaction may run in, or undefined when nothing bounds it. */
const lastEpoch = (expiration: TransactionDataV1["expiration"]): bigint | undefined => {
  switch (expiration.$kind) {
    case "Epoch":
      return BigInt(expiration.Epoch)
    case "ValidDuring":
    case "Validity": {
      const window = expiration.$kind === "ValidDuring" ? expiration.ValidDuring : expiration.Validity
      return window.maxEpoch === null || window.maxEpoch === undefined ? undefined : BigInt(window.maxEpoch)
    }
    default:
      return undefined
  }
}

/**
 * Whether the transaction a gas station answered is the payment the agent asked it to sponsor, and nothing else,
 * before the agent signs it. The station is a third party to the agent's key: whatever it returns, the agent's
 * signature must only ever cover its own `TransactionKind`, byte for byte, sent by the agent, with someone else
 * paying the gas (a station naming the agent as gas owner would spend the agent's own coins), and an expiration,
 * so a signed payment the gateway holds cannot be executed long after the call it paid for. `latestEpoch` bounds
 * that expiration when the caller read the chain's epoch: one epoch of slack for a station that built the
 * transaction just after the epoch changed. `declared` is what the station's answer says besides the bytes; it
 * must agree with them.
 */
export const checkSponsoredPayment = (input: {
  readonly transaction: Uint8Array
  readonly kind: Uint8Array
  readonly sender: string
  readonly latestEpoch?: bigint
  readonly declared?: { readonly sender: string; readonly sponsor: string }
}): SponsoredCheck => {
  const data = parseData(input.transaction)
  if (data === undefined || data.$kind !== "V1") return refuse("transaction: not BCS TransactionData (V1)")
  const v1 = data.V1
  const sender = normalizeSuiAddress(input.sender)
  if (normalizeSuiAddress(v1.sender) !== sender) return refuse(`sender: ${v1.sender} is not the agent ${sender}`)
  // An unset gas owner is the sender: the agent would pay.
  const gasOwner = normalizeSuiAddress(v1.gasData.owner ?? v1.sender)
  if (gasOwner === sender) return refuse("gasOwner: the agent would pay the gas; a gas station must sponsor it")
  const kind = bcs.TransactionKind.serialize(v1.kind).toBytes()
  if (toHex(kind) !== toHex(input.kind)) return refuse("kind: the transaction is not exactly the payment sent to the gas station")
  const epoch = lastEpoch(v1.expiration)
  if (epoch === undefined) return refuse("expiration: none; a signed payment must expire")
  if (input.latestEpoch !== undefined && epoch > input.latestEpoch + 1n) {
    return refuse(`expiration: epoch ${epoch} is past the current epoch ${input.latestEpoch}`)
  }
  if (input.declared !== undefined) {
    if (normalizeSuiAddress(input.declared.sender) !== sender) return refuse(`sender: the station names ${input.declared.sender}, not the agent`)
    if (normalizeSuiAddress(input.declared.sponsor) !== gasOwner) return refuse(`sponsor: the station names ${input.declared.sponsor}, the bytes ${gasOwner}`)
  }
  return { ok: true }
}
