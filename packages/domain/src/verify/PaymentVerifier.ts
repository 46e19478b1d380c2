import { toHex } from "@mysten/sui/utils"
import { Effect } from "effect"
import type { ChainTransaction } from "../chain/ChainTransaction.ts"
import { Events, type SpendAccountPackage } from "../chain/SpendAccountModule.ts"
import { ForeignDigest, Unverified } from "../Errors.ts"
import { calls, eventsOf, exactlyOne, finalFrom, sameAddress } from "./Common.ts"

/** What a paid call's challenge asked for. */
export interface ExpectedPayment {
  readonly pkg: SpendAccountPackage
  readonly amount: bigint
  readonly recipient: string
  /** The challenge nonce; the payment carries it as the memo (its UTF-8 bytes). */
  readonly nonce: string
}

export const memoOf = (nonce: string) => new TextEncoder().encode(nonce)

/**
 * A payment whose PaymentMade does not match the challenge: its money moved all the same, and the payer must learn
 * how much went where, that it pays nothing here, and that only the recipient can give it back.
 */
const movedButRefused = (field: string, detail: string, payment: { readonly amount: string; readonly grant_id: string; readonly recipient: string }) =>
  new Unverified({
    message: `This transaction paid ${payment.amount} atomic units from grant ${payment.grant_id} to ${payment.recipient}: that money has moved, and it does not pay this call because its ${field} does not match the challenge (${detail}). This gateway cannot return it; only the recipient can. Pay a fresh challenge with its exact amount, its payTo and its nonce as the memo`,
    reason: `${field}: ${detail}`
  })

/**
 * A payment is verified when it is final, succeeded, called `pay`, and emitted
 * exactly one PaymentMade with the challenge's amount, recipient and nonce,
 * sent by the grant's own delegate. Returns the grant and pool it paid from.
 */
export const verifyPayment = (expected: ExpectedPayment, tx: ChainTransaction) =>
  Effect.gen(function*() {
    const [event] = eventsOf(tx, expected.pkg, "PaymentMade", Events.PaymentMade)
    // The sender must be the delegate the event names; anyone else's digest is foreign.
    yield* finalFrom(tx, event?.delegate ?? tx.sender)
    yield* calls(tx, expected.pkg, ["pay"])
    const payment = yield* exactlyOne(eventsOf(tx, expected.pkg, "PaymentMade", Events.PaymentMade), "PaymentMade")
    if (!sameAddress(payment.delegate, tx.sender)) {
      return yield* new ForeignDigest({ message: "The payment was sent by someone else", reason: `sender: expected ${payment.delegate}, got ${tx.sender}` })
    }
    if (BigInt(payment.amount) !== expected.amount) return yield* movedButRefused("amount", `expected ${expected.amount}, got ${payment.amount}`, payment)
    if (!sameAddress(payment.recipient, expected.recipient)) {
      return yield* movedButRefused("recipient", `expected ${expected.recipient}, got ${payment.recipient}`, payment)
    }
    if (toHex(Uint8Array.from(payment.memo)) !== toHex(memoOf(expected.nonce))) {
      return yield* movedButRefused("memo", "it does not carry this challenge's nonce", payment)
    }
    return { grantObjectId: payment.grant_id, poolId: payment.pool_id, delegate: payment.delegate, amount: BigInt(payment.amount) }
  })
