import { randomBytes } from "node:crypto"
import { encodePaymentResponseHeader } from "@x402/core/http"
import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import { Conflict, type NotFound, Unavailable, Unverified, type VerificationError } from "@gateway/domain/Errors"
import { policyAllows, PolicyRule } from "@gateway/domain/Policy"
import { verifyPayment } from "@gateway/domain/verify/PaymentVerifier"
import { AppConfig } from "../Config.ts"
import { PaymentRepo } from "../repositories/PaymentRepo.ts"
import { Catalog } from "./Catalog.ts"
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
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const decodeRules = Schema.decodeUnknownSync(Schema.Array(PolicyRule))

      const challenge = Effect.fnUntraced(function*(entry: CatalogEntry, revision: number, reason: string) {
        const at = yield* now
        const terms: ChallengeTerms = {
          nonce: randomBytes(16).toString("base64url"),
          seconds: config.paymentChallengeSeconds,
          expiresAt: new Date(at.getTime() + config.paymentChallengeSeconds * 1000),
          entry,
          packageId: chain.packageId
        }
        yield* repo.insertChallenge({
          nonce: terms.nonce,
          serviceId: entry.id,
          revision,
          amount: entry.price,
          asset: entry.asset,
          payTo: entry.payTo,
          expiresAt: terms.expiresAt
        }, at)
        return {
          _tag: "PaymentRequired" as const,
          body: { ok: false, code: "PAYMENT_REQUIRED", message: "This call must be paid", reason, ...x402Required(terms, reason) },
          headers: challengeHeaders(terms, publicUrl.host, reason)
        }
      })

      const forward = Effect.fnUntraced(function*(
        request: PaidCallRequest,
        target: { entry: CatalogEntry; upstreamUrl: string; upstreamCredentialEnv: string | null },
        credential: PaymentCredential,
        payer: string
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
            signal: AbortSignal.timeout(15_000)
          })
          return { status: upstream.status, type: upstream.headers.get("content-type"), body: new Uint8Array(await upstream.arrayBuffer()) }
        }).pipe(Effect.option)
        const at = yield* now
        if (Option.isNone(response) || response.value.status >= 500) {
          yield* repo.settle(credential.digest, "upstream_failed", Option.isSome(response) ? response.value.status : null, at)
          return yield* new Unavailable({
            message: "The seller's service failed; your payment is kept",
            reason: "upstream_failed_retry_with_the_same_credential"
          })
        }
        yield* repo.settle(credential.digest, "forwarded", response.value.status, at)
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
              payer,
              amount: target.entry.price
            }),
            "payment-receipt": Buffer.from(JSON.stringify(receipt)).toString("base64url")
          }
        }
      })

      const handle = Effect.fn("PaidCalls.handle")(function*(request: PaidCallRequest) {
        const target = yield* catalog.forForwarding(request.serviceId)
        const { entry } = target
        const credential = readCredential(request.headers)
        if (credential === undefined) return yield* challenge(entry, entry.activeRevision, "payment_required")
        const stored = yield* repo.findChallenge(credential.nonce)
        if (Option.isNone(stored) || stored.value.serviceId !== entry.id) return yield* challenge(entry, entry.activeRevision, "unknown_challenge")
        if (stored.value.expiresAt.getTime() <= (yield* now).getTime()) return yield* challenge(entry, entry.activeRevision, "challenge_expired")

        const existing = yield* repo.findPayment(credential.nonce, credential.digest)
        if (Option.isSome(existing)) {
          const payment = existing.value
          if (payment.digest !== credential.digest || payment.nonce !== credential.nonce || payment.status === "forwarded") {
            return yield* challenge(entry, entry.activeRevision, "challenge_already_used")
          }
          if (payment.status === "forwarding" || !(yield* repo.reclaim(payment.digest, yield* now))) {
            return yield* new Conflict({ message: "This payment is being used by another request", reason: "payment_in_flight" })
          }
          const tx = yield* chain.getTransaction(credential.digest)
          return yield* forward(request, target, credential, tx.sender)
        }

        // The challenge's own terms are what the payment must match, even if the service changed since.
        const tx = yield* chain.getTransaction(credential.digest)
        const paid = yield* verifyPayment({
          packageId: chain.packageId,
          amount: BigInt(stored.value.amount),
          recipient: stored.value.payTo,
          nonce: credential.nonce
        }, tx)
        // Pause, revoke, expiry and caps were enforced by the chain when it accepted the payment;
        // the gateway adds that the grant is one it provisioned and that the owner's policy allows this call.
        const grant = yield* repo.findPayingGrant(paid.grantObjectId)
        if (Option.isNone(grant)) {
          return yield* new Unverified({ message: "The payment came from a grant this gateway did not provision", reason: "grant: unknown to this gateway" })
        }
        const allowed = policyAllows(decodeRules(grant.value.policyRules), {
          serviceId: entry.id,
          method: entry.method,
          path: entry.path,
          recipient: entry.payTo,
          asset: entry.asset
        }, normalizeCoinType)
        if (!allowed) return yield* new Unverified({ message: "The owner's policy does not allow this call", reason: "policy: service not allowed" })

        const claimed = yield* repo.claim({
          digest: credential.digest,
          nonce: credential.nonce,
          serviceId: entry.id,
          grantObjectId: paid.grantObjectId,
          payer: paid.delegate,
          amount: paid.amount.toString(),
          now: yield* now
        })
        if (!claimed) return yield* new Conflict({ message: "This payment is being used by another request", reason: "payment_in_flight" })
        return yield* forward(request, target, credential, paid.delegate)
      })

      return PaidCalls.of({ handle })
    })
  )
}
