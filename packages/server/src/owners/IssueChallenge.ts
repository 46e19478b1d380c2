import { randomBytes } from "node:crypto"
import { Clock, Effect } from "effect"
import * as SignInMessage from "@gateway/domain/SignInMessage"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { SessionRepo } from "./SessionRepo.ts"
import { type ClientAddress, throttleClient } from "./SignInLimits.ts"

/** A Sign-In-With-Sui message for the address's wallet to sign, valid for `challengeTtlMs`; costs the asking client's budget. */
export const issueChallenge = Effect.fn("OwnerSessions.challenge")(function*(address: SuiAddress, client: ClientAddress) {
  const config = yield* AppConfig
  const publicUrl = yield* PublicUrl
  yield* throttleClient(client)
  const issued = new Date(yield* Clock.currentTimeMillis)
  const expires = new Date(issued.getTime() + config.challengeTtlMs)
  const nonce = randomBytes(16).toString("base64url")
  const message = SignInMessage.render({
    domain: publicUrl.host,
    address,
    uri: publicUrl.origin,
    chainId: `sui:${config.network}`,
    nonce,
    issuedAt: issued.toISOString(),
    expirationTime: expires.toISOString()
  })
  yield* (yield* SessionRepo).insertChallenge({ nonce, address, message, expiresAt: expires })
  return { message, nonce, expiresAt: expires.toISOString() }
})
