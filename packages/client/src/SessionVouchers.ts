import type { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { fromBase64, toBase64 } from "@mysten/sui/utils"
import { encodePaymentSignatureHeader } from "@x402/core/http"
import type { PaymentRequirements } from "@x402/core/types"
import { Effect } from "effect"
import { voucherMessage } from "@gateway/domain/chain/SessionVoucher"

/** A voucher as presented: the session, the cumulative amount the payee may claim with it, the session key's signature. */
export interface SignedVoucher {
  readonly sessionId: string
  readonly cumulative: bigint
  /** Base64 of the raw 64-byte Ed25519 signature over `voucherMessage`. */
  readonly signature: string
}

/**
 * The session key's voucher for `cumulative` (the final one closes the session). Ed25519 signatures are
 * deterministic: the same amount signed again is the same voucher, byte for byte.
 */
export const signVoucher = (sessionKey: Ed25519Keypair, sessionId: string, cumulative: bigint, final = false) =>
  Effect.promise(async (): Promise<SignedVoucher> => ({
    sessionId,
    cumulative,
    signature: toBase64(await sessionKey.sign(voucherMessage(sessionId, cumulative, final)))
  }))

/** The x402 `sui-session` payload of a voucher. */
export const x402VoucherPayload = (voucher: SignedVoucher) => ({
  session: voucher.sessionId,
  cumulativeAmount: voucher.cumulative.toString(),
  signature: voucher.signature
})

/** x402's `PAYMENT-SIGNATURE` of a voucher; `accepted` is the `sui-session` offer as the 402 carried it. */
export const x402VoucherHeader = (accepted: PaymentRequirements, voucher: SignedVoucher) =>
  encodePaymentSignatureHeader({ x402Version: 2, accepted, payload: x402VoucherPayload(voucher) })

/** MPP's `session` credential payload of a voucher: the channel is the Sui `Session` object. */
export const mppVoucherPayload = (voucher: SignedVoucher) => ({
  action: "voucher" as const,
  channelId: voucher.sessionId,
  cumulativeAmount: voucher.cumulative.toString(),
  signature: voucher.signature
})

/**
 * What the gateway's answer to a voucher means for the session:
 * - `Charged`: the seller answered (a receipt came): the voucher's amount is what the session used.
 * - `NotCharged`: the seller failed, or the answer says nothing about this voucher: the next voucher signs the
 *   same amount again (the same voucher), never a higher one.
 * - `Behind`: the gateway charged more than the agent knew (an earlier answer was lost): catch up, sign anew.
 * - `Retire`: this session takes no more vouchers (its deposit, expiry, or a close): open another.
 * - `Busy`: another call of the session is in flight: wait, then present again.
 * - `Unknown`: no answer was seen (the request failed): as `NotCharged`, but the voucher may have been charged.
 */
export type VoucherOutcome =
  | { readonly _tag: "Charged" }
  | { readonly _tag: "NotCharged" }
  | { readonly _tag: "Behind"; readonly alreadyUsed: boolean }
  | { readonly _tag: "Retire" }
  | { readonly _tag: "Busy" }
  | { readonly _tag: "Unknown" }

const RETIRING = new Set(["voucher_above_deposit", "session_near_expiry", "session_closed", "session_closing"])

/** The gateway's reason in an error body, if it has one. */
export const reasonOf = (response: Response): Promise<string> =>
  response.clone().json().then(
    (body: unknown) => typeof body === "object" && body !== null && "reason" in body && typeof body.reason === "string" ? body.reason : "",
    () => ""
  )

/** How the gateway's receipts name a call paid by a voucher: nothing went on chain, so the session and the amount. */
export const voucherReference = (voucher: SignedVoucher) => `${voucher.sessionId}:${voucher.cumulative}`

/** The reference a receipt header names: x402's `PAYMENT-RESPONSE` (`transaction`) or MPP's `Payment-Receipt` (`reference`). */
const receiptReference = (response: Response): string | undefined => {
  for (const [header, field] of [["payment-response", "transaction"], ["payment-receipt", "reference"]] as const) {
    const value = response.headers.get(header)
    if (value === null) continue
    try {
      // Base64url (MPP) read as base64 (x402): the same alphabet but for two characters, and no padding needed.
      const receipt: unknown = JSON.parse(new TextDecoder().decode(fromBase64(value.replaceAll("-", "+").replaceAll("_", "/"))))
      if (typeof receipt === "object" && receipt !== null && field in receipt) return String(Reflect.get(receipt, field))
    } catch {
      continue
    }
  }
  return undefined
}

/**
 * Reads the gateway's answer to a voucher: a receipt for this very voucher, else the reason of its refusal. A
 * receipt for anything else (the client paid the call another way) says nothing about the voucher.
 */
export const voucherOutcome = async (response: Response, voucher: SignedVoucher): Promise<VoucherOutcome> => {
  const reference = receiptReference(response)
  if (reference !== undefined) return reference === voucherReference(voucher) ? { _tag: "Charged" } : { _tag: "Unknown" }
  const reason = await reasonOf(response)
  if (reason === "voucher_already_used") return { _tag: "Behind", alreadyUsed: true }
  if (reason === "voucher_below_price") return { _tag: "Behind", alreadyUsed: false }
  if (reason === "session_busy") return { _tag: "Busy" }
  if (RETIRING.has(reason)) return { _tag: "Retire" }
  return { _tag: "NotCharged" }
}
