import { toHex } from "@mysten/sui/utils"
import { Effect } from "effect"
import type { ChainTransaction } from "../chain/ChainTransaction.ts"
import { Events, type SpendAccountPackage } from "../chain/SpendAccountModule.ts"
import { ForeignDigest } from "../Errors.ts"
import { calls, eventsOf, exactlyOne, finalFrom, sameAddress, unverified } from "./Common.ts"

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
    if (BigInt(payment.amount) !== expected.amount) return yield* unverified("amount", `expected ${expected.amount}, got ${payment.amount}`)
    if (!sameAddress(payment.recipient, expected.recipient)) {
      return yield* unverified("recipient", `expected ${expected.recipient}, got ${payment.recipient}`)
    }
    if (toHex(Uint8Array.from(payment.memo)) !== toHex(memoOf(expected.nonce))) return yield* unverified("memo", "does not carry this challenge's nonce")
    return { grantObjectId: payment.grant_id, poolId: payment.pool_id, delegate: payment.delegate, amount: BigInt(payment.amount) }
  })
