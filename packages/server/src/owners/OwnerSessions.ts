import { createHash, createHmac, randomBytes } from "node:crypto"
import { verifyPersonalMessageSignature } from "@mysten/sui/verify"
import { Clock, Context, Duration, Effect, Layer, Option, Redacted, Schedule } from "effect"
import { Unauthenticated, type Unavailable } from "@gateway/domain/Errors"
import { perMinute } from "@gateway/domain/limits/Quota"
import type { Challenge, Session } from "@gateway/domain/OwnerSession"
import * as SignInMessage from "@gateway/domain/SignInMessage"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import { SessionRepo } from "./SessionRepo.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import type { Limited } from "../limits/Limited.ts"
import { RateLimits } from "../limits/RateLimits.ts"
import { sameSecret } from "../secrets/SameSecret.ts"

const unauthenticated = (reason: string) =>
  new Unauthenticated({ message: "A verified owner session is required", reason })

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

/** The MAC a trusted internal hop sends: HMAC-SHA256 over `<address>.<ms>`, hex. */
export const internalHopMac = (secret: string, address: string, ms: number) =>
  createHmac("sha256", secret).update(`${address}.${ms}`).digest("hex")

/** Who asked, as the sign-in limits count it: the network address the request came from. */
export type ClientAddress = string

/** An authenticated caller: the owner, and the store key of the session it presented (none for an internal hop). */
export interface Caller {
  readonly address: SuiAddress
  readonly session: Option.Option<string>
}

/**
 * Sign-In-With-Sui: a challenge the wallet signs as a personal message, then an
 * opaque bearer token stored only as its hash. Also verifies trusted internal
 * hops. Any other credential is UNAUTHENTICATED.
 *
 * Two limits, so nobody can spend another's budget: asking for a challenge
 * (and failing to sign in) costs the asking client's budget
 * (`signInChallengesPerMinute`), and only a verified signature costs the
 * address's (`signInPerMinute`), which only that address's key can spend.
 * Both are counted in the store, so they hold across replicas.
 * Expired challenges, sessions and internal-hop records are deleted every
 * `storeSweepIntervalMs` while the service runs, on every replica (the
 * deletes are idempotent, so replicas sweeping at once is harmless).
 */
export class OwnerSessions extends Context.Service<OwnerSessions, {
  challenge(address: SuiAddress, client: ClientAddress): Effect.Effect<typeof Challenge.Type, Limited | Unavailable>
  signIn(message: string, signature: string, client: ClientAddress): Effect.Effect<Session, Unauthenticated | Limited | Unavailable>
  authenticate(authorization: string): Effect.Effect<Caller, Unauthenticated | Unavailable>
  /** Revokes the session the caller presented; how many sessions stopped working (0 for an internal hop). */
  signOut(caller: Caller): Effect.Effect<number, Unavailable>
  /** Revokes every session of the caller's owner. */
  revokeAll(caller: Caller): Effect.Effect<number, Unavailable>
}>()("@gateway/server/OwnerSessions") {
  static readonly layer = Layer.effect(
    OwnerSessions,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const repo = yield* SessionRepo
      const publicUrl = yield* PublicUrl
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const limits = yield* RateLimits
      const tooMany = { message: "Too many sign-in attempts: try again after Retry-After seconds", reason: "sign_in_rate_limited" }
      const throttleClient = (client: ClientAddress) => limits.take(`sign_in_client:${client}`, perMinute(config.signInChallengesPerMinute), tooMany)
      const throttleAddress = (address: string) => limits.take(`sign_in_address:${address}`, perMinute(config.signInPerMinute), tooMany)
      /** A failed sign-in costs the client that tried, never the address it named. */
      const refuseSignIn = (client: ClientAddress, reason: string) =>
        Effect.andThen(throttleClient(client), Effect.fail(unauthenticated(reason)))

      const challenge = Effect.fn("OwnerSessions.challenge")(function*(address: SuiAddress, client: ClientAddress) {
        yield* throttleClient(client)
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

      const signIn = Effect.fn("OwnerSessions.signIn")(function*(message: string, signature: string, client: ClientAddress) {
        const fields = SignInMessage.parse(message)
        if (fields === undefined) return yield* refuseSignIn(client, "malformed_sign_in_message")
        // The signature is checked before anything is spent or consumed: a
        // forged attempt costs only its sender, and burns no challenge.
        const verified = yield* Effect.tryPromise(() =>
          verifyPersonalMessageSignature(new TextEncoder().encode(message), signature, { address: fields.address })
        ).pipe(Effect.isSuccess)
        if (!verified) return yield* refuseSignIn(client, "bad_signature")
        yield* throttleAddress(fields.address)
        const at = yield* now
        // Consumed only when nonce, address and the whole text are the ones
        // issued: the same nonce in any other text (another address signing
        // it) consumes nothing.
        const consumed = yield* repo.consumeChallenge({ nonce: fields.nonce, address: fields.address, message, now: at })
        if (!consumed) return yield* refuseSignIn(client, "unknown_used_or_expired_challenge")
        const address = SuiAddress.make(fields.address)
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
        return { address: SuiAddress.make(address), session: Option.none() }
      })

      const authenticate = Effect.fn("OwnerSessions.authenticate")(function*(authorization: string) {
        const [scheme = "", credential = "", ...rest] = authorization.trim().split(/\s+/)
        if (rest.length > 0 || credential === "") return yield* unauthenticated("missing_owner_session")
        switch (scheme) {
          case "Bearer": {
            const tokenHash = sha256(credential)
            const address = yield* repo.findSession(tokenHash, yield* now)
            if (Option.isNone(address)) return yield* unauthenticated("unknown_or_expired_session")
            return { address: SuiAddress.make(address.value), session: Option.some(tokenHash) }
          }
          case "Internal":
            return yield* internalHop(credential)
          default:
            return yield* unauthenticated("unsupported_authorization_scheme")
        }
      })

      const signOut = (caller: Caller) =>
        Option.match(caller.session, { onNone: () => Effect.succeed(0), onSome: repo.deleteSession })

      const revokeAll = (caller: Caller) => repo.deleteSessionsOf(caller.address)

      const sweep = Effect.flatMap(now, repo.deleteExpired).pipe(
        Effect.tap((swept) =>
          swept.challenges + swept.sessions + swept.internalHops > 0 ? Effect.logDebug("expired sign-in records deleted", swept) : Effect.void),
        // An outage is already logged by the store; the next sweep tries again.
        Effect.ignore
      )
      yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(Duration.millis(config.storeSweepIntervalMs))))

      return OwnerSessions.of({ challenge, signIn, authenticate, signOut, revokeAll })
    })
  )
}
