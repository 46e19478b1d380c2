import { Schema } from "effect"
import { described } from "./Doc.ts"
import { SuiAddress } from "./SuiAddress.ts"

export const ChallengeRequest = Schema.Struct({ address: described(SuiAddress, "The owner's Sui address, the wallet that will sign in.") })

/** A Sign-In-With-Sui message for the wallet to sign as a personal message. */
export const Challenge = Schema.Struct({
  message: described(Schema.String, "The sign-in message to sign with the wallet (personal message)."),
  nonce: described(Schema.String, "The challenge's single-use nonce, inside message."),
  expiresAt: described(Schema.String, "Sign and post it before this time (ISO 8601).")
})

export const SessionRequest = Schema.Struct({
  message: described(Schema.String.pipe(Schema.check(Schema.isMaxLength(4000))), "The challenge message exactly as received."),
  signature: described(Schema.String.pipe(Schema.check(Schema.isMaxLength(4000))), "The wallet's personal-message signature over it, base64.")
})

export const Session = Schema.Struct({
  token: described(Schema.String, "The session token: send it as `Authorization: Bearer <token>`."),
  address: described(SuiAddress, "The signed-in owner's Sui address."),
  expiresAt: described(Schema.String, "When the session ends (ISO 8601).")
})
export type Session = typeof Session.Type

/** What a sign-out removed: how many sessions stopped working. */
export const Revoked = Schema.Struct({
  revoked: described(Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))), "How many sessions were revoked.")
})
