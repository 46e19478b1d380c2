import { toHex } from "@mysten/sui/utils"
import type { ChainEvent } from "../chain/ChainTransaction.ts"
import { Events, normalizeCoinType, type SpendAccountPackage } from "../chain/SpendAccountModule.ts"
import { eventsOf, sameAddress } from "../verify/Common.ts"
import type { PaymentTransaction } from "../verify/PaymentTransaction.ts"
import { memoOf } from "../verify/PaymentVerifier.ts"
import type { AskedCall } from "./PaidCallDecision.ts"
import { suiNetwork } from "./SuiDelegateOffer.ts"

export type SignedCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string }

const ok: SignedCheck = { ok: true }
const refuse = (reason: string): SignedCheck => ({ ok: false, reason })

/** What a sign-first payment must pay, and where the chain is now. */
export interface SignedTerms {
  readonly asked: AskedCall
  /** The challenge nonce; a grant payment carries it as its memo. */
  readonly nonce: string
  /** The catalog's network of the service (`sui:<network>` or bare). */
  readonly network: string
  readonly currentEpoch: bigint
}

/**
 * The x402 verification steps that need only the bytes (scheme document, "Verification" 1, and the terms the
 * payload echoes): the echoed offer is the challenge's own, the transaction expires with the current epoch (so a
 * payment the gateway holds never outlives it), and a grant payment's own arguments name the asked amount,
 * recipient, asset and the challenge's nonce.
 */
export const checkSignedTerms = (
  tx: PaymentTransaction,
  echoed: { readonly network: string; readonly amount: string; readonly asset: string; readonly payTo: string } | undefined,
  terms: SignedTerms
): SignedCheck => {
  const { asked } = terms
  if (echoed !== undefined) {
    if (echoed.network !== suiNetwork(terms.network)) return refuse(`accepted.network: ${echoed.network} is not ${suiNetwork(terms.network)}`)
    if (echoed.amount !== asked.price.toString()) return refuse(`accepted.amount: ${echoed.amount} is not the challenge's ${asked.price}`)
    if (normalizeCoinType(echoed.asset) !== normalizeCoinType(asked.asset)) return refuse(`accepted.asset: ${echoed.asset} is not ${asked.asset}`)
    if (!sameAddress(echoed.payTo, asked.payTo)) return refuse(`accepted.payTo: ${echoed.payTo} is not ${asked.payTo}`)
  }
  if (tx.expiration._tag !== "Epoch" || tx.expiration.epoch !== terms.currentEpoch) {
    return refuse(`transaction.expiration: must be epoch ${terms.currentEpoch} (the current epoch), so the signed payment expires with it`)
  }
  const shape = tx.shape
  if (shape._tag === "GrantPayment") {
    if (shape.amount !== asked.price) return refuse(`pay.amount: ${shape.amount} is not the price ${asked.price}`)
    if (!sameAddress(shape.recipient, asked.payTo)) return refuse(`pay.recipient: ${shape.recipient} is not ${asked.payTo}`)
    if (shape.coinType !== normalizeCoinType(asked.asset)) return refuse(`pay.typeArguments: ${shape.coinType} is not ${asked.asset}`)
    if (toHex(shape.memo) !== toHex(memoOf(terms.nonce))) return refuse("pay.memo: not this challenge's nonce")
  }
  return ok
}

/** A simulation's outcome as the verifier reads it. */
export interface SimulatedPayment {
  readonly success: boolean
  readonly error: string | null
  readonly events: ReadonlyArray<ChainEvent>
  readonly balanceChanges: ReadonlyArray<{ readonly coinType: string; readonly address: string; readonly amount: string }>
}

/** What the simulation proved a grant payment came from. */
export interface SimulatedGrant {
  readonly grantObjectId: string
  readonly poolId: string
}

export type SimulationCheck =
  | { readonly ok: true; readonly grant: SimulatedGrant | undefined }
  | { readonly ok: false; readonly reason: string }

/**
 * The x402 verification steps on the simulation ("Verification" 3 and 4): it succeeds, and `payTo` sees a balance
 * change of exactly `amount` in `asset`. A grant payment must also emit exactly one `PaymentMade` of this package,
 * by the sender as the grant's delegate, with the asked amount, recipient and memo, from the grant it names.
 */
export const checkSimulatedPayment = (
  simulated: SimulatedPayment,
  tx: PaymentTransaction,
  expected: { readonly pkg: SpendAccountPackage; readonly asked: AskedCall; readonly nonce: string }
): SimulationCheck => {
  const { asked } = expected
  if (!simulated.success) return { ok: false, reason: `simulation: the payment would fail: ${simulated.error ?? "failure"}` }
  const asset = normalizeCoinType(asked.asset)
  const received = simulated.balanceChanges
    .filter((c) => sameAddress(c.address, asked.payTo) && normalizeCoinType(c.coinType) === asset)
    .reduce((sum, c) => sum + BigInt(c.amount), 0n)
  if (received !== asked.price) return { ok: false, reason: `balanceChanges: payTo receives ${received} of ${asked.asset}, not ${asked.price}` }
  if (tx.shape._tag !== "GrantPayment") return { ok: true, grant: undefined }
  const made = eventsOf({ events: simulated.events }, expected.pkg, "PaymentMade", Events.PaymentMade)
  const [event, ...more] = made
  if (event === undefined || more.length > 0) return { ok: false, reason: `events: ${made.length} PaymentMade; a grant payment emits exactly one` }
  if (!sameAddress(event.delegate, tx.sender)) return { ok: false, reason: `PaymentMade.delegate: ${event.delegate} is not the sender ${tx.sender}` }
  if (BigInt(event.amount) !== asked.price) return { ok: false, reason: `PaymentMade.amount: ${event.amount} is not ${asked.price}` }
  if (!sameAddress(event.recipient, asked.payTo)) return { ok: false, reason: `PaymentMade.recipient: ${event.recipient} is not ${asked.payTo}` }
  if (toHex(Uint8Array.from(event.memo)) !== toHex(memoOf(expected.nonce))) return { ok: false, reason: "PaymentMade.memo: not this challenge's nonce" }
  if (!sameAddress(event.grant_id, tx.shape.grantObjectId)) return { ok: false, reason: "PaymentMade.grant_id: not the grant the call names" }
  return { ok: true, grant: { grantObjectId: tx.shape.grantObjectId, poolId: event.pool_id } }
}
