import { normalizeCoinType } from "../chain/SpendAccountModule.ts"
import { policyAllows, type PolicyRule } from "../Policy.ts"

/** The grant a verified payment came from, as this gateway provisioned it: its id, pool, asset and its signer's policy snapshot. */
export interface PayingGrant {
  readonly id: string
  readonly poolId: string
  readonly coinType: string
  readonly policyRules: ReadonlyArray<PolicyRule>
}

/** What the challenge asked for: the service, its declared call and its price's asset and recipient. */
export interface AskedCall {
  readonly serviceId: string
  readonly method: string
  readonly path: string
  readonly payTo: string
  readonly asset: string
}

export interface PaymentFacts {
  /** When the chain accepted the payment (its checkpoint's time); 0 or less when the chain gave none. */
  readonly paidAtMs: number
  /** The challenge's expiry, from its sealed nonce. */
  readonly challengeExpiresAtMs: number
  /** The pool the `PaymentMade` event names. */
  readonly paidFromPool: string
  /** The grant the event names, when this gateway provisioned it. */
  readonly grant: PayingGrant | undefined
  readonly asked: AskedCall
}

/** Why money that moved does not pay for the call; each is recorded with the payment, and spends its digest. */
export type Refusal = "unknown_grant" | "wrong_asset" | "policy"

export type Acceptance =
  | { readonly _tag: "Accepted" }
  /** The chain did not say when: nothing can be decided (and nothing is recorded). */
  | { readonly _tag: "NoTimestamp" }
  /** Paid after the challenge expired: recorded, and answered with a fresh challenge. */
  | { readonly _tag: "Late" }
  | { readonly _tag: "Refused"; readonly refusal: Refusal }

/**
 * Whether a verified payment (final, succeeded, the challenge's amount,
 * recipient and nonce, sent by the grant's delegate) pays for the call. Pause,
 * revoke, grant expiry and caps were enforced by the chain when it accepted the
 * payment; the gateway adds that it came in time (at the chain's time, not the
 * time it is presented), from a grant it provisioned and that grant's own pool,
 * in the challenge's asset (a cheaper coin must not pay a dearer price), and
 * that the owner's policy allows this call.
 */
export const decideAcceptance = (facts: PaymentFacts): Acceptance => {
  if (!(facts.paidAtMs > 0)) return { _tag: "NoTimestamp" }
  if (facts.paidAtMs > facts.challengeExpiresAtMs) return { _tag: "Late" }
  const { grant, asked } = facts
  if (grant === undefined || grant.poolId !== facts.paidFromPool) return { _tag: "Refused", refusal: "unknown_grant" }
  if (normalizeCoinType(grant.coinType) !== normalizeCoinType(asked.asset)) return { _tag: "Refused", refusal: "wrong_asset" }
  const call = { serviceId: asked.serviceId, method: asked.method, path: asked.path, recipient: asked.payTo, asset: asked.asset }
  if (!policyAllows(grant.policyRules, call, normalizeCoinType)) return { _tag: "Refused", refusal: "policy" }
  return { _tag: "Accepted" }
}
