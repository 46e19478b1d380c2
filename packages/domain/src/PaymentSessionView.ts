import { Schema } from "effect"
import { described, documented, Example } from "./Doc.ts"
import { AtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { ObjectId, SuiAddress } from "./SuiAddress.ts"

/** The latest voucher the seller may claim with: anyone may submit the claim (`spend_account::claim`); it pays the payee. */
export const ClaimableVoucher = Schema.Struct({
  cumulativeAmount: AtomicAmount.annotateKey({ description: "What the voucher lets the payee claim in all (atomic units)", examples: [AtomicAmount.make("3000")] }),
  signature: Schema.String.annotateKey({
    description: "The delegate's Ed25519 signature over the voucher's bytes, base64",
    examples: [Example.ed25519Signature]
  })
})

/**
 * A payment session (docs/paid-calls.md §7) as its seller and its grant's owner see it: the deposit on chain,
 * what the answered calls used, what the chain paid the seller so far, and what went back to the pool.
 */
export const PaymentSessionView = Schema.Struct({
  sessionId: ObjectId.annotateKey({ description: "The Session object on chain" }),
  grantObjectId: ObjectId.annotateKey({ description: "The grant the deposit was taken from" }),
  delegate: SuiAddress.annotateKey({ description: "The agent that opened it and signs its vouchers" }),
  payee: SuiAddress.annotateKey({ description: "The seller's payTo: the only address its vouchers pay" }),
  asset: described(CoinType, "The coin type the session pays in."),
  deposit: AtomicAmount.annotateKey({ description: "Deposited on chain in all (open and top-ups), atomic units" }),
  used: AtomicAmount.annotateKey({ description: "The cumulative amount of the last voucher whose call the seller answered" }),
  calls: Schema.String.annotateKey({ description: "How many calls paid from it the seller answered, as a decimal string", examples: ["3"] }),
  claimed: AtomicAmount.annotateKey({ description: "What the chain paid the seller from it so far" }),
  unclaimed: AtomicAmount.annotateKey({ description: "Used but not claimed yet: claimed for the seller by the gateway, or by anyone with `voucher`" }),
  returned: Schema.NullOr(AtomicAmount).annotateKey({
    description: "What went back to the pool (and the grant's budget) at its close, atomic units; null while open",
    examples: [null]
  }),
  expiresAt: Schema.String.annotateKey({
    description: "When the session ends (ISO 8601); vouchers are accepted until shortly before, and claimable for an hour after",
    examples: [Example.isoTime]
  }),
  state: documented(
    Schema.Literals(["open", "closing", "closed"]),
    "open (vouchers accepted), closing (the owner asked to close; takes effect after a grace period), or closed.",
    "open"
  ),
  closeDigest: Schema.NullOr(Schema.String).annotateKey({
    description: "The digest (base58) of the transaction that closed it; null until it is closed",
    examples: [null]
  }),
  openedAt: Schema.String.annotateKey({ description: "When the gateway first accepted one of its vouchers (ISO 8601)", examples: [Example.isoTime] }),
  voucher: Schema.NullOr(ClaimableVoucher).annotateKey({ description: "The seller's latest claimable voucher; null before any answered call" })
})
export type PaymentSessionView = typeof PaymentSessionView.Type

export const PaymentSessionList = Schema.Struct({ sessions: described(Schema.Array(PaymentSessionView), "The sessions, newest first (at most 100).") })
export type PaymentSessionList = typeof PaymentSessionList.Type

/** The delegate's final voucher: the session ends, the seller is paid what it says, and the rest goes back to the pool. */
export const CloseSessionRequest = Schema.Struct({
  cumulativeAmount: AtomicAmount.annotateKey({ description: "What the seller is owed in all: at least what the answered calls used" }),
  signature: Schema.String.annotateKey({
    description: "The session key's Ed25519 signature over the final voucher's bytes (sui-gw-voucher-final:v1), base64",
    examples: [Example.ed25519Signature]
  })
})
export type CloseSessionRequest = typeof CloseSessionRequest.Type

export const ClosedSession = Schema.Struct({
  sessionId: described(ObjectId, "The Session object closed."),
  digest: Schema.String.annotateKey({ description: "The digest (base58) of the claim_and_close transaction", examples: [Example.digest] }),
  claimed: described(AtomicAmount, "What the seller was paid from it in all (atomic units)."),
  returned: described(AtomicAmount, "What went back to the pool and the grant's budget (atomic units).")
})
export type ClosedSession = typeof ClosedSession.Type

export const ClaimRequested = Schema.Struct({
  sessions: Schema.Int.annotateKey({ description: "How many sessions have unclaimed vouchers the next claim round claims", examples: [2] })
})
