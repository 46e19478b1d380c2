import { Clock, Effect } from "effect"
import * as SignInMessage from "@gateway/domain/SignInMessage"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import { newSessionToken, tokenHashOf } from "./SessionToken.ts"
import { SessionRepo } from "./SessionRepo.ts"
import { type ClientAddress, refuseSignIn, throttleAddress } from "./SignInLimits.ts"
import { personalMessageSignedBy } from "@gateway/chain/SuiSignatures"

/** A session for the address that signed a challenge it was issued; the token is returned once and stored only as its hash. */
export const signIn = Effect.fn("OwnerSessions.signIn")(function*(message: string, signature: string, client: ClientAddress) {
  const config = yield* AppConfig
  const repo = yield* SessionRepo
  const fields = SignInMessage.parse(message)
  if (fields === undefined) return yield* refuseSignIn(client, "malformed_sign_in_message")
  // The signature is checked before anything is spent or consumed: a
  // forged attempt costs only its sender, and burns no challenge.
  const verified = yield* Effect.tryPromise(() => personalMessageSignedBy(new TextEncoder().encode(message), signature, fields.address)).pipe(
    Effect.orElseSucceed(() => false)
  )
  if (!verified) return yield* refuseSignIn(client, "bad_signature")
  yield* throttleAddress(fields.address)
  const at = new Date(yield* Clock.currentTimeMillis)
  // Consumed only when nonce, address and the whole text are the ones
  // issued: the same nonce in any other text (another address signing
  // it) consumes nothing.
  const consumed = yield* repo.consumeChallenge({ nonce: fields.nonce, address: fields.address, message, now: at })
  if (!consumed) return yield* refuseSignIn(client, "unknown_used_or_expired_challenge")
  const address = SuiAddress.make(fields.address)
  const token = newSessionToken()
  const expiresAt = new Date(at.getTime() + config.sessionTtlMs)
  yield* repo.insertSession({ tokenHash: tokenHashOf(token), address, createdAt: at, expiresAt })
  return { token, address, expiresAt: expiresAt.toISOString() }
})
