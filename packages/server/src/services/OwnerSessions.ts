import { createHash, createHmac, randomBytes } from "node:crypto"
import { verifyPersonalMessageSignature } from "@mysten/sui/verify"
import { Clock, Context, Effect, Layer, Option, Redacted } from "effect"
import { Unauthenticated, type Unavailable } from "@gateway/domain/Errors"
import type { Challenge, Session } from "@gateway/domain/OwnerSession"
import * as SignInMessage from "@gateway/domain/SignInMessage"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import { SessionRepo } from "../repositories/SessionRepo.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { sameSecret } from "./SameSecret.ts"

const unauthenticated = (reason: string) =>
  new Unauthenticated({ message: "A verified owner session is required", reason })

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

/** The MAC a trusted internal hop sends: HMAC-SHA256 over `<address>.<ms>`, hex. */
export const internalHopMac = (secret: string, address: string, ms: number) =>
  createHmac("sha256", secret).update(`${address}.${ms}`).digest("hex")

/**
 * The sign-in brake's memory: `perMinute` steps per address in each minute,
 * per replica. Windows sit in the order they opened (an address gets a new
 * one only after its stale one is dropped), so stale windows go oldest first
 * and a live one never does: flooding other addresses cannot reset an
 * address's count. While `capacity` live windows are open, an address
 * without one is braked too, until they go stale.
 */
export const makeSignInBrake = (perMinute: number, capacity = 100_000) => {
  const windows = new Map<string, { readonly minute: number; readonly count: number }>()
  return (address: string, ms: number): boolean => {
    const minute = Math.floor(ms / 60_000)
    for (const [key, window] of windows) {
      if (window.minute >= minute) break
      windows.delete(key)
    }
    const seen = windows.get(address)
    if (seen === undefined && windows.size >= capacity) return false
    const count = (seen?.count ?? 0) + 1
    windows.set(address, { minute: seen === undefined ? minute : seen.minute, count })
    return count <= perMinute
  }
}

/**
 * Sign-In-With-Sui: a challenge the wallet signs as a personal message, then an
 * opaque bearer token stored only as its hash. Also verifies trusted internal
 * hops. Any other credential is UNAUTHENTICATED.
 */
export class OwnerSessions extends Context.Service<OwnerSessions, {
  challenge(address: SuiAddress): Effect.Effect<typeof Challenge.Type, Unauthenticated | Unavailable>
  signIn(message: string, signature: string): Effect.Effect<Session, Unauthenticated | Unavailable>
  authenticate(authorization: string): Effect.Effect<SuiAddress, Unauthenticated | Unavailable>
}>()("@gateway/server/OwnerSessions") {
  static readonly layer = Layer.effect(
    OwnerSessions,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const repo = yield* SessionRepo
      const publicUrl = yield* PublicUrl
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const admit = makeSignInBrake(config.signInPerMinute)
      const throttle = (address: string) =>
        Effect.flatMap(Clock.currentTimeMillis, (ms) =>
          admit(address, ms) ? Effect.void : Effect.fail(unauthenticated("sign_in_rate_limited")))

      const challenge = Effect.fn("OwnerSessions.challenge")(function*(address: SuiAddress) {
        yield* throttle(address)
        const issued = yield* now
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
        yield* repo.insertChallenge({ nonce, address, message, expiresAt: expires })
        return { message, nonce, expiresAt: expires.toISOString() }
      })

      const signIn = Effect.fn("OwnerSessions.signIn")(function*(message: string, signature: string) {
        const fields = SignInMessage.parse(message)
        if (fields === undefined) return yield* unauthenticated("malformed_sign_in_message")
        yield* throttle(fields.address)
        // The signature is checked before the challenge is consumed, so a forged
        // attempt cannot burn somebody else's challenge.
        yield* Effect.tryPromise({
          try: () =>
            verifyPersonalMessageSignature(new TextEncoder().encode(message), signature, { address: fields.address }),
          catch: () => unauthenticated("bad_signature")
        })
        const at = yield* now
        const stored = yield* repo.consumeChallenge(fields.nonce, at)
        if (Option.isNone(stored)) return yield* unauthenticated("unknown_used_or_expired_challenge")
        if (stored.value.message !== message || stored.value.address !== fields.address) {
          return yield* unauthenticated("challenge_mismatch")
        }
        const address = SuiAddress.make(stored.value.address)
        const token = randomBytes(32).toString("base64url")
        const expiresAt = new Date(at.getTime() + config.sessionTtlMs)
        yield* repo.insertSession({ tokenHash: sha256(token), address, createdAt: at, expiresAt })
        return { token, address, expiresAt: expiresAt.toISOString() }
      })

      const internalHop = Effect.fnUntraced(function*(credential: string) {
        const secret = Option.getOrUndefined(Option.map(config.internalHopSecret, Redacted.value))
        if (secret === undefined) return yield* unauthenticated("internal_hop_disabled")
        const match = /^(0x[0-9a-f]{64})\.(\d{1,16})\.([0-9a-f]{64})$/.exec(credential)
        if (match === null) return yield* unauthenticated("malformed_internal_hop")
        const [, address = "", msText = "", mac = ""] = match
        const ms = Number(msText)
        if (!sameSecret(mac, internalHopMac(secret, address, ms))) return yield* unauthenticated("bad_internal_hop_mac")
        const at = yield* now
        if (Math.abs(at.getTime() - ms) > config.internalHopWindowMs) {
          return yield* unauthenticated("internal_hop_outside_window")
        }
        const fresh = yield* repo.useInternalHop(mac, new Date(ms + config.internalHopWindowMs), at)
        if (!fresh) return yield* unauthenticated("internal_hop_replayed")
        return SuiAddress.make(address)
      })

      const authenticate = Effect.fn("OwnerSessions.authenticate")(function*(authorization: string) {
        const [scheme = "", credential = "", ...rest] = authorization.trim().split(/\s+/)
        if (rest.length > 0 || credential === "") return yield* unauthenticated("missing_owner_session")
        switch (scheme) {
          case "Bearer": {
            const address = yield* repo.findSession(sha256(credential), yield* now)
            if (Option.isNone(address)) return yield* unauthenticated("unknown_or_expired_session")
            return SuiAddress.make(address.value)
          }
          case "Internal":
            return yield* internalHop(credential)
          default:
            return yield* unauthenticated("unsupported_authorization_scheme")
        }
      })

      return OwnerSessions.of({ challenge, signIn, authenticate })
    })
  )
}
