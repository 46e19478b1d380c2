import { Schema } from "effect"
import { CoinType } from "./CoinType.ts"
import { PolicyId, ProfileId, ServiceId } from "./Ids.ts"
import { SuiAddress } from "./SuiAddress.ts"

const bounded = <S extends Schema.Top>(item: S) => Schema.Array(item).pipe(Schema.check(Schema.isMaxLength(64)))

/**
 * What a policy allows. An empty list allows any value for that dimension; a
 * payment must match every non-empty list of at least one rule of the snapshot.
 */
export const PolicyRule = Schema.Struct({
  serviceIds: bounded(ServiceId),
  methods: bounded(Schema.Literals(["GET", "POST", "PUT", "PATCH", "DELETE"])),
  paths: bounded(Schema.String.pipe(Schema.check(Schema.isMaxLength(500)))),
  recipients: bounded(SuiAddress),
  assets: bounded(CoinType)
})
export type PolicyRule = typeof PolicyRule.Type

export const CreatePolicy = Schema.Struct({
  name: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(100))),
  rule: PolicyRule
})

export const Policy = Schema.Struct({
  id: PolicyId,
  name: Schema.String,
  onChainPolicyId: Schema.Number,
  rule: PolicyRule,
  createdAt: Schema.String
})
export type Policy = typeof Policy.Type

export const CreateProfile = Schema.Struct({
  name: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(100))),
  policyIds: Schema.Array(PolicyId).pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(32)))
})

export const Profile = Schema.Struct({
  id: ProfileId,
  name: Schema.String,
  policyIds: Schema.Array(PolicyId),
  createdAt: Schema.String
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
