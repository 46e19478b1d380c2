import { encodePaymentResponseHeader } from "@x402/core/http"
import { Clock, Context, Effect, Layer, Option, Schedule, Schema } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import { Conflict, type NotFound, Unavailable, Unverified, type VerificationError } from "@gateway/domain/Errors"
import { policyAllows, PolicyRule } from "@gateway/domain/Policy"
import { verifyPayment } from "@gateway/domain/verify/PaymentVerifier"
import { AppConfig } from "../Config.ts"
import { GatewayKeyRepo } from "../repositories/GatewayKeyRepo.ts"
import { type Payment, PaymentRepo } from "../repositories/PaymentRepo.ts"
import { Catalog } from "./Catalog.ts"
import { mintNonce, openNonce } from "./ChallengeNonce.ts"
import { type ChallengeTerms, challengeHeaders, type PaymentCredential, readCredential, x402Network, x402Required } from "./PaymentChallenge.ts"
import { PublicUrl } from "./PublicUrl.ts"

export interface PaidCallRequest {
  readonly serviceId: string
  readonly method: string
  readonly search: string
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: Uint8Array
}

export type PaidCallResult =
  | { readonly _tag: "PaymentRequired"; readonly body: unknown; readonly headers: Record<string, string> }
  | { readonly _tag: "Forwarded"; readonly status: number; readonly body: Uint8Array; readonly headers: Record<string, string> }

type Refusal = NotFound | Conflict | Unavailable | VerificationError

/** Who paid for a forward and how much, as the receipt reports it. */
type PaidBy = { readonly payer: string; readonly amount: string }

type Forwardable = { readonly entry: CatalogEntry; readonly upstreamUrl: string; readonly upstreamCredentialEnv: string | null }

const UPSTREAM_TIMEOUT_MS = 15_000
/** A forward still marked in flight after this long belongs to a request that died (crash, lost store): it may be taken over. */
const STALE_FORWARD_MS = 4 * UPSTREAM_TIMEOUT_MS

/** Headers never passed on to the seller: hop-by-hop ones and the caller's own credentials. */
const DROPPED = new Set(["host", "connection", "content-length", "authorization", "payment-signature", "transfer-encoding", "keep-alive"])

/**
 * Paid calls: a call without a valid payment gets a 402 challenge (x402 and
 * MPP) with a single-use nonce; a call with one is verified on chain, recorded
 * (nonce and digest UNIQUE, so a replay fails even across replicas) and
 * forwarded once to the seller. A forward that fails is recorded, and the same
 * credential may be presented again to retry it.
 */
export class PaidCalls extends Context.Service<PaidCalls, {
  handle(request: PaidCallRequest): Effect.Effect<PaidCallResult, Refusal>
}>()("@gateway/server/PaidCalls") {
  static readonly layer = Layer.effect(
    PaidCalls,
    Effect.gen(function*() {
      const catalog = yield* Catalog
      const repo = yield* PaymentRepo
      const chain = yield* Chain
      const publicUrl = yield* PublicUrl
      const config = yield* AppConfig
      const keys = yield* GatewayKeyRepo
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const decodeRules = Schema.decodeUnknownSync(Schema.Array(PolicyRule))

      const challengeKey = yield* keys.getOrCreate("payment_challenge")

      // Minting writes nothing: the nonce carries its terms under the gateway's key (see ChallengeNonce).
      const challenge = Effect.fnUntraced(function*(entry: CatalogEntry, reason: string) {
        const at = yield* now
        const expiresAt = new Date(at.getTime() + config.paymentChallengeSeconds * 1000)
        const terms: ChallengeTerms = {
          nonce: mintNonce(challengeKey, { serviceId: entry.id, revision: entry.activeRevision, expiresAtMs: expiresAt.getTime() }),
          seconds: config.paymentChallengeSeconds,
          expiresAt,
          entry,
          pkg: chain.pkg
        }
        return {
          _tag: "PaymentRequired" as const,
          body: { ok: false, code: "PAYMENT_REQUIRED", message: "This call must be paid", reason, ...x402Required(terms, reason) },
          headers: challengeHeaders(terms, publicUrl.host, reason)
        }
      })

      // The seller has answered: a store that blinks now would strand the payment in flight for
      // STALE_FORWARD_MS and call the seller twice, so the settling write is retried briefly.
      const settle = (...args: Parameters<typeof repo.settle>) =>
        repo.settle(...args).pipe(Effect.retry({ schedule: Schedule.exponential("20 millis"), times: 6 }))

      // Uninterruptible from here to the settled record: a caller who hangs up must not leave the payment stuck in flight.
      const forward = (request: PaidCallRequest, target: Forwardable, credential: PaymentCredential, paid: PaidBy) =>
        Effect.uninterruptible(forwardOnce(request, target, credential, paid))

      const forwardOnce = Effect.fnUntraced(function*(
        request: PaidCallRequest,
        target: Forwardable,
        credential: PaymentCredential,
        paid: PaidBy
      ) {
        const headers = new Headers()
        for (const [name, value] of Object.entries(request.headers)) if (value !== undefined && !DROPPED.has(name)) headers.set(name, value)
        // The seller's credential comes from the environment at call time; it is never stored or logged.
        const secret = target.upstreamCredentialEnv === null ? undefined : process.env[target.upstreamCredentialEnv]
        if (secret !== undefined) headers.set("authorization", `Bearer ${secret}`)
        const response = yield* Effect.tryPromise(async () => {
          const upstream = await fetch(`${target.upstreamUrl}${request.search}`, {
            method: request.method,
            headers,
            ...(request.method === "GET" || request.method === "HEAD" ? {} : { body: request.body }),
            signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS)
          })
          return { status: upstream.status, type: upstream.headers.get("content-type"), body: new Uint8Array(await upstream.arrayBuffer()) }
        }).pipe(Effect.option)
        const at = yield* now
        if (Option.isNone(response) || response.value.status >= 500) {
          yield* settle(credential.digest, "upstream_failed", Option.isSome(response) ? response.value.status : null)
          return yield* new Unavailable({
            message: "The seller's service failed; your payment is kept",
            reason: "upstream_failed_retry_with_the_same_credential"
          })
        }
        yield* settle(credential.digest, "forwarded", response.value.status)
        const receipt = { method: "sui", reference: credential.digest, status: "success", timestamp: at.toISOString() }
        return {
          _tag: "Forwarded" as const,
          status: response.value.status,
          body: response.value.body,
          headers: {
            ...(response.value.type === null ? {} : { "content-type": response.value.type }),
            "payment-response": encodePaymentResponseHeader({
              success: true,
              transaction: credential.digest,
              network: x402Network(target.entry.network),
              payer: paid.payer,
              // What was paid, under the challenge's revision, even if the service's price changed since.
              amount: paid.amount
            }),
            "payment-receipt": Buffer.from(JSON.stringify(receipt)).toString("base64url")
          }
        }
      })

      const inFlight = () => new Conflict({ message: "This payment is being used by another request", reason: "payment_in_flight" })

      /** A recorded payment: a forward that failed, or whose request died, may be retried with the same credential. */
      const retry = Effect.fnUntraced(function*(
        request: PaidCallRequest,
        target: Forwardable,
        credential: PaymentCredential,
        payment: Payment
      ) {
        const { entry } = target
        if (payment.digest !== credential.digest || payment.nonce !== credential.nonce || payment.status === "forwarded") {
          return yield* challenge(entry, "challenge_already_used")
        }
        if (payment.status === "refused") return yield* challenge(entry, `payment_refused_${payment.refusal ?? "earlier"}`)
        if (!(yield* repo.reclaim(payment.digest, STALE_FORWARD_MS))) return yield* inFlight()
        return yield* forward(request, target, credential, { payer: payment.payer, amount: payment.amount })
      })

      const handle = Effect.fn("PaidCalls.handle")(function*(request: PaidCallRequest) {
        const target = yield* catalog.forForwarding(request.serviceId)
        const { entry } = target
        const credential = readCredential(request.headers)
        if (credential === undefined) return yield* challenge(entry, "payment_required")
        const claims = openNonce(challengeKey, credential.nonce)
        if (claims === undefined || claims.serviceId !== entry.id) return yield* challenge(entry, "unknown_challenge")
        // The terms the challenge asked for: those of the revision it was minted under, even if the service changed since.
        const asked = yield* catalog.atRevision(claims.serviceId, claims.revision)

        // Before the expiry check: a payment already recorded stays usable for its retry, however late.
        const existing = yield* repo.findPayment(credential.nonce, credential.digest)
        if (Option.isSome(existing)) return yield* retry(request, target, credential, existing.value)

        // The challenge's own terms are what the payment must match, even if the service changed since.
        const tx = yield* chain.getTransaction(credential.digest)
        const paid = yield* verifyPayment({
          pkg: chain.pkg,
          amount: BigInt(asked.price),
          recipient: asked.payTo,
          nonce: credential.nonce
        }, tx)
        const record = (refusal: string | null) =>
          Effect.flatMap(now, (at) =>
            repo.claim({
              digest: credential.digest,
              nonce: credential.nonce,
              serviceId: entry.id,
              revision: claims.revision,
              grantObjectId: paid.grantObjectId,
              payer: paid.delegate,
              amount: paid.amount.toString(),
              refusal,
              now: at
            }))
        // Money moved but the call is refused: the payment is recorded (so the owner can reconcile it) and the nonce is spent.
        const refuse = (refusal: string, error: Unverified) => Effect.andThen(record(refusal), Effect.fail(error))

        // A challenge binds the time the chain accepted the payment, not the time it is presented.
        const paidAtMs = Number(tx.timestampMs)
        if (!(paidAtMs > 0)) {
          return yield* new Unavailable({ message: "The chain did not say when the payment was made", reason: "chain_gave_no_timestamp" })
        }
        if (paidAtMs > claims.expiresAtMs) {
          yield* record("challenge_expired")
          return yield* challenge(entry, "challenge_expired")
        }
        // Pause, revoke, expiry and caps were enforced by the chain when it accepted the payment;
        // the gateway adds that the grant is one it provisioned, in the challenge's asset, and that the owner's policy allows this call.
        const grant = yield* repo.findPayingGrant(paid.grantObjectId)
        if (Option.isNone(grant) || grant.value.poolId !== paid.poolId) {
          return yield* refuse("unknown_grant", new Unverified({ message: "The payment came from a grant this gateway did not provision", reason: "grant: unknown to this gateway" }))
        }
        if (normalizeCoinType(grant.value.coinType) !== normalizeCoinType(asked.asset)) {
          return yield* refuse("wrong_asset", new Unverified({ message: "The payment was made in another asset than the challenge asks", reason: `asset: expected ${asked.asset}` }))
        }
        const allowed = policyAllows(decodeRules(grant.value.policyRules), {
          serviceId: asked.id,
          method: asked.method,
          path: asked.path,
          recipient: asked.payTo,
          asset: asked.asset
        }, normalizeCoinType)
        if (!allowed) return yield* refuse("policy", new Unverified({ message: "The owner's policy does not allow this call", reason: "policy: service not allowed" }))

        if (!(yield* record(null))) return yield* inFlight()
        return yield* forward(request, target, credential, { payer: paid.delegate, amount: paid.amount.toString() })
      })

      return PaidCalls.of({ handle })
    })
  )
}
