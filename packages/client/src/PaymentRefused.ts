import { Schema } from "effect"

/**
 * The SDK would not pay, or the chain would not let it: `reason` says which
 * rule. `digest` names the transaction when it reached the chain and failed
 * there (its gas was spent); a payment refused by the dry run has none.
 */
export class PaymentRefused extends Schema.TaggedError<PaymentRefused>()("PaymentRefused", {
  reason: Schema.String,
  digest: Schema.optionalKey(Schema.String)
}) {}
