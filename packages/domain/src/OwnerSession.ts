import { Schema } from "effect"
import { described, documented, Example } from "./Doc.ts"
import { render } from "./SignInMessage.ts"
import { SuiAddress } from "./SuiAddress.ts"

/** A challenge as the gateway at gateway.example on testnet would issue it, for the documents' examples. */
const NONCE_EXAMPLE = "3k9XbQ7rT2mVw1ZpL8cN4a"
const SIGN_IN_EXAMPLE = render({
  domain: "gateway.example",
  address: "0x5f0e3c3b8f1a4b2e9d7c6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d",
  uri: "https://gateway.example",
  chainId: "sui:testnet",
  nonce: NONCE_EXAMPLE,
  issuedAt: "2026-01-15T09:25:00.000Z",
  expirationTime: Example.isoTime
})

export const ChallengeRequest = Schema.Struct({ address: described(SuiAddress, "The owner's Sui address, the wallet that will sign in.") })

/** A Sign-In-With-Sui message for the wallet to sign as a personal message. */
export const Challenge = Schema.Struct({
  message: documented(Schema.String, "The sign-in message to sign with the wallet (personal message).", SIGN_IN_EXAMPLE),
  nonce: documented(Schema.String, "The challenge's single-use nonce, inside message.", NONCE_EXAMPLE),
  expiresAt: documented(Schema.String, "Sign and post it before this time (ISO 8601).", Example.isoTime)
})

export const SessionRequest = Schema.Struct({
  message: documented(Schema.String.pipe(Schema.check(Schema.isMaxLength(4000))), "The challenge message exactly as received.", SIGN_IN_EXAMPLE),
  signature: documented(
    Schema.String.pipe(Schema.check(Schema.isMaxLength(4000))),
    "The wallet's personal-message signature over it, base64.",
    Example.walletSignature
  )
})

export const Session = Schema.Struct({
  token: documented(Schema.String, "The session token: send it as `Authorization: Bearer <token>`.", "q2Vx8mZ0bN4tR7yL1cK9pW3sD6fH5jG8aE2uT0iO4vX"),
  address: described(SuiAddress, "The signed-in owner's Sui address."),
  expiresAt: documented(Schema.String, "When the session ends (ISO 8601).", Example.isoTime)
})
export type Session = typeof Session.Type

/** What a sign-out removed: how many sessions stopped working. */
export const Revoked = Schema.Struct({
  revoked: documented(Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))), "How many sessions were revoked.", 1)
})
