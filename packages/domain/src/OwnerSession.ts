import { Schema } from "effect"
import { SuiAddress } from "./SuiAddress.ts"

export const ChallengeRequest = Schema.Struct({ address: SuiAddress })

/** A Sign-In-With-Sui message for the wallet to sign as a personal message. */
export const Challenge = Schema.Struct({
  message: Schema.String,
  nonce: Schema.String,
  expiresAt: Schema.String
})

export const SessionRequest = Schema.Struct({
  message: Schema.String.pipe(Schema.check(Schema.isMaxLength(4000))),
  signature: Schema.String.pipe(Schema.check(Schema.isMaxLength(4000)))
})

export const Session = Schema.Struct({
  token: Schema.String,
  address: SuiAddress,
  expiresAt: Schema.String
})
export type Session = typeof Session.Type

/** What a sign-out removed: how many sessions stopped working. */
export const Revoked = Schema.Struct({
  revoked: Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)))
})
