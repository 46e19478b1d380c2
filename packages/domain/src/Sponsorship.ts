import { Schema } from "effect"
import { SuiAddress } from "./SuiAddress.ts"

const Base64 = Schema.String.pipe(
  Schema.check(Schema.isMaxLength(16_384), Schema.isPattern(/^[A-Za-z0-9+/]+={0,2}$/, { expected: "base64" }))
)

/** A prepared kind (create grant, revoke, pause, resume, fund or withdraw) the owner asks the platform to pay gas for. */
export const SponsorRequest = Schema.Struct({ txKindBytes: Base64 })

/**
 * The whole transaction for the owner's wallet to sign: the owner sends it,
 * the sponsor pays its gas. The sponsor co-signs exactly these bytes, once,
 * until `expiresAt`.
 */
export const SponsoredTransaction = Schema.Struct({
  txBytes: Base64,
  sender: SuiAddress,
  sponsor: SuiAddress,
  gasBudget: Schema.String,
  /** When the sponsor stops holding this transaction's gas coin and no longer co-signs it (ISO 8601). */
  expiresAt: Schema.String
})
export type SponsoredTransaction = typeof SponsoredTransaction.Type

export const ExecuteSponsored = Schema.Struct({
  /** Exactly the bytes POST /v1/sponsored-transactions returned. */
  txBytes: Base64,
  /** The owner's signature over txBytes, as the wallet returns it (base64). */
  signature: Base64
})

export const SponsoredExecution = Schema.Struct({
  digest: Schema.String,
  status: Schema.Literals(["success", "failure"]),
  /** Why the chain failed it; null on success. */
  error: Schema.NullOr(Schema.String)
})
export type SponsoredExecution = typeof SponsoredExecution.Type
