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
]).annotate({ examples: ["active"] })
export type SignerStatus = typeof SignerStatus.Type

export const GrantStatus = Schema.Literals(["pending", "active", "pausing", "paused", "revoking", "revoked", "failed"]).annotate({ examples: ["active"] })
export type GrantStatus = typeof GrantStatus.Type

/** A grant's status as read: a live grant whose expiry has passed reads as `expired`. */
export const GrantViewStatus = Schema.Literals([...GrantStatus.literals, "expired"]).annotate({ examples: ["active"] })
export type GrantViewStatus = typeof GrantViewStatus.Type
