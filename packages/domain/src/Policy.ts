import { Schema } from "effect"
import { described, documented, Example } from "./Doc.ts"
import { CoinType } from "./CoinType.ts"
import { PolicyId, ProfileId, ServiceId } from "./Ids.ts"
import { SuiAddress } from "./SuiAddress.ts"

const bounded = <S extends Schema.Top>(item: S) => Schema.Array(item).pipe(Schema.check(Schema.isMaxLength(64)))

/**
 * What a policy allows. An empty list allows any value for that dimension; a
 * payment must match every non-empty list of at least one rule of the snapshot.
 */
export const PolicyRule = Schema.Struct({
  serviceIds: described(bounded(ServiceId), "Services the agent may pay; empty for any."),
  methods: described(bounded(Schema.Literals(["GET", "POST", "PUT", "PATCH", "DELETE"])), "HTTP methods it may pay for; empty for any."),
  paths: described(bounded(Schema.String.pipe(Schema.check(Schema.isMaxLength(500)))), "Service paths it may pay for; empty for any."),
  recipients: described(bounded(SuiAddress), "Addresses it may pay; empty for any."),
  assets: described(bounded(CoinType), "Coin types it may pay in; empty for any.")
})
export type PolicyRule = typeof PolicyRule.Type

export const CreatePolicy = Schema.Struct({
  name: documented(Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(100))), "Your name for the policy; 1 to 100 characters.", "weather only"),
  rule: described(PolicyRule, "What a payment must match: each list empty for any.")
})

export const Policy = Schema.Struct({
  id: described(PolicyId, "The policy's id."),
  name: documented(Schema.String, "Your name for the policy.", "weather only"),
  onChainPolicyId: documented(Schema.Int, "The number grants carry on chain for this policy.", 1),
  rule: described(PolicyRule, "What a payment must match: each list empty for any."),
  createdAt: documented(Schema.String, "When it was created (ISO 8601).", Example.isoTime)
})
export type Policy = typeof Policy.Type

export const CreateProfile = Schema.Struct({
  name: documented(Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(100))), "Your name for the profile; 1 to 100 characters.", "research"),
  policyIds: described(Schema.Array(PolicyId).pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(32))), "The policies a signer created from this profile is held to.")
})

export const Profile = Schema.Struct({
  id: described(ProfileId, "The profile's id."),
  name: documented(Schema.String, "Your name for the profile.", "research"),
  policyIds: described(Schema.Array(PolicyId), "The policies a signer created from it is held to."),
  createdAt: documented(Schema.String, "When it was created (ISO 8601).", Example.isoTime)
})
export type Profile = typeof Profile.Type

/** One paid call as a policy judges it. */
export interface PaidCallTerms {
  readonly serviceId: string
  readonly method: string
  readonly path: string
  readonly recipient: string
  readonly asset: string
}

const allowedBy = (allowed: ReadonlyArray<string>, value: string) => allowed.length === 0 || allowed.includes(value)

/**
 * A snapshot allows a call when no rule exists (no policy was attached) or
 * some rule allows every dimension of it. Assets compare in normalized form.
 */
export const policyAllows = (
  rules: ReadonlyArray<PolicyRule>,
  call: PaidCallTerms,
  normalizeAsset: (asset: string) => string
): boolean =>
  rules.length === 0 ||
  rules.some((rule) =>
    allowedBy(rule.serviceIds, call.serviceId) &&
    allowedBy(rule.methods, call.method) &&
    allowedBy(rule.paths, call.path) &&
    allowedBy(rule.recipients, call.recipient) &&
    allowedBy(rule.assets.map(normalizeAsset), normalizeAsset(call.asset))
  )
