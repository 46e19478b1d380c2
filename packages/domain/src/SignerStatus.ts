import { Schema } from "effect"

export const SignerStatus = Schema.Literals([
  "awaiting_owner_signature",
  "partially_active",
  "active",
  "revoking",
  "partially_revoked",
  "revoked",
  "expired",
  "failed",
  "pausing",
  "paused"
])
export type SignerStatus = typeof SignerStatus.Type

export const GrantStatus = Schema.Literals(["pending", "active", "pausing", "paused", "revoking", "revoked", "failed"])
export type GrantStatus = typeof GrantStatus.Type

/** A grant reads as `expired` once its expiry has passed, whatever it stored. */
export const GrantViewStatus = Schema.Literals([...GrantStatus.literals, "expired"])
