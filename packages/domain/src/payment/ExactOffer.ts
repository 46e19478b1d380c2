import { Schema } from "effect"
import { type ChallengeTerms, challengeTermFields, SuiDelegateOffer, suiDelegateOffer } from "./SuiDelegateOffer.ts"

/**
 * x402's `exact` scheme on Sui (x402 `specs/schemes/exact/scheme_exact_sui.md`): sign-first. The payer signs a
 * whole transaction and does not execute it; the gateway verifies it (signature, simulation, the balance change
 * to `payTo`), forwards the call, and executes the transaction only after the seller answered. A transaction
 * never executed moves nothing, so a seller's failure costs the payer nothing.
 */
export const EXACT_SCHEME = "exact"

/**
 * What a grant holder needs beside the amount, asset and recipient: the `sui-delegate` terms (the `pay` call's
 * memo is `nonce`), when the challenge expires, and the gas station that pays the transaction's gas. A third-party
 * `exact` client that pays from its own coins needs none of it.
 */
export const ExactExtra = Schema.Struct({
  paymentFlow: Schema.Literal("authorization"),
  ...challengeTermFields,
  /** ISO 8601; a payment presented later than this is refused, and one settled later is never executed. */
  expiresAt: Schema.String,
  /**
   * `POST` here `{ transactionKind, sender }` (base64 `TransactionKind` bytes of the payment alone) and get the
   * whole transaction back with the gateway's sponsor as gas owner: sign that and present it. Omitted when this
   * gateway sponsors no gas; the payer then pays gas from its own coins.
   */
  gasStation: Schema.optionalKey(Schema.String)
})
export type ExactExtra = typeof ExactExtra.Type

/** One x402 `PaymentRequirements` of scheme `exact` on Sui: the `sui-delegate` offer's terms under another scheme and flow. */
export const ExactOffer = Schema.Struct({ ...SuiDelegateOffer.fields, scheme: Schema.Literal(EXACT_SCHEME), extra: ExactExtra })
export type ExactOffer = typeof ExactOffer.Type

export const exactOffer = (t: ChallengeTerms, gasStation: string | undefined): ExactOffer => {
  const upfront = suiDelegateOffer(t)
  return {
    ...upfront,
    scheme: EXACT_SCHEME,
    extra: {
      ...upfront.extra,
      paymentFlow: "authorization",
      ...(gasStation === undefined ? {} : { gasStation })
    }
  }
}

const decodeOffer = Schema.decodeUnknownOption(ExactOffer)

/** The `exact` offer among a 402's `accepts`, decoded, or undefined when there is none. */
export const findExactOffer = (accepts: ReadonlyArray<unknown>): ExactOffer | undefined => {
  for (const candidate of accepts) {
    const decoded = decodeOffer(candidate)
    if (decoded._tag === "Some") return decoded.value
  }
  return undefined
}
