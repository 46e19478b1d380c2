import { Schema } from "effect"

/**
 * Ids are a prefix and 26 lowercase base32 characters (128 random bits); the prefix names the resource. The example
 * sits on the string: an annotation on the branded schema would land on the brand check, which the JSON Schema omits.
 * The `u` flag lets the pattern into the JSON Schema (effect exports only Unicode-mode patterns).
 */
const prefixed = (prefix: string) =>
  Schema.String.annotate({ examples: [`${prefix}_0123456789abcdefghijklmnop`] }).pipe(
    Schema.check(Schema.isPattern(new RegExp(`^${prefix}_[0-9a-z]{26}$`, "u"), { expected: `an id of the form ${prefix}_<id>` }))
  )

export const DelegatedSignerId = prefixed("ds").pipe(Schema.brand("DelegatedSignerId"))
export type DelegatedSignerId = typeof DelegatedSignerId.Type

export const GrantId = prefixed("g").pipe(Schema.brand("GrantId"))
export type GrantId = typeof GrantId.Type

export const PolicyId = prefixed("pol").pipe(Schema.brand("PolicyId"))
export type PolicyId = typeof PolicyId.Type

export const ProfileId = prefixed("prof").pipe(Schema.brand("ProfileId"))
export type ProfileId = typeof ProfileId.Type

export const ServiceId = prefixed("svc").pipe(Schema.brand("ServiceId"))
export type ServiceId = typeof ServiceId.Type
