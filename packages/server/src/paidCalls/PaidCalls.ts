import { encodePaymentResponseHeader } from "@x402/core/http"
import { Receipt } from "mppx"
import { Cause, Clock, Context, Duration, Effect, Exit, Layer, Option, Redacted, Schedule } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import { Conflict, ForeignDigest, type NotFound, NotFinal, TxFailed, Unavailable, Unverified, type VerificationError } from "@gateway/domain/Errors"
import { paymentRequired } from "@gateway/domain/payment/PaymentRequired"
import { mppReceipt, settleResponse } from "@gateway/domain/payment/Settlement"
import { type ChallengeTerms, suiNetwork } from "@gateway/domain/payment/SuiDelegateOffer"
import { decideAcceptance, type Refusal as AcceptanceRefusal } from "@gateway/domain/payment/PaymentAcceptance"
import { verifyPayment } from "@gateway/domain/verify/PaymentVerifier"
import { AppConfig } from "../Config.ts"
import type { Limited } from "../limits/Limited.ts"
import { BatchedLimits } from "../limits/BatchedLimits.ts"
import { RateLimits } from "../limits/RateLimits.ts"
import { clientKey } from "@gateway/domain/limits/ClientKey"
import { perMinute } from "@gateway/domain/limits/Quota"
import { GatewayKeyRepo } from "../storage/GatewayKeyRepo.ts"
import { type PaidAnswer, type Payment, PaymentRepo } from "./PaymentRepo.ts"
import { SignerRepo } from "../signers/SignerRepo.ts"
import { Catalog, type Forwardable } from "../catalog/Catalog.ts"
import { mintNonce, openNonce } from "./ChallengeNonce.ts"
import { challengeHeaders, mppSecretOf, type PaymentCredential, readCredential } from "./PaymentChallenge.ts"
import { provesPossession } from "./PaymentProofCheck.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { type UpstreamAnswer, UpstreamForwarder, upstreamHeaders } from "../upstream/UpstreamForwarder.ts"
import { hostPortOf } from "../upstream/UpstreamPolicy.ts"

export interface PaidCallRequest {
  readonly serviceId: string
  readonly method: string
  readonly search: string
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: Uint8Array
  /** The caller's network address, as the seller's `X-Forwarded-For`. */
  readonly clientAddress: string | undefined
}

export type PaidCallResult =
  | { readonly _tag: "PaymentRequired"; readonly body: unknown; readonly headers: Record<string, string> }
  | { readonly _tag: "Forwarded"; readonly status: number; readonly body: Uint8Array; readonly headers: Record<string, string> }
  /** The service is not called with this method: nothing is challenged, accepted or forwarded. */
  | { readonly _tag: "MethodNotAllowed"; readonly allow: ReadonlyArray<string> }

type Refusal = NotFound | Conflict | Unavailable | VerificationError | Limited

/** The error a refused payment is answered with. */
const REFUSALS: Record<AcceptanceRefusal, (asset: string) => { readonly message: string; readonly reason: string }> = {
  unknown_grant: () => ({ message: "The payment came from a grant this gateway did not provision", reason: "grant: unknown to this gateway" }),
  wrong_asset: (asset) => ({ message: "The payment was made in another asset than the challenge asks", reason: `asset: expected ${asset}` }),
  policy: () => ({ message: "The owner's policy does not allow this call", reason: "policy: service not allowed" })
}

/** Who paid for a forward and how much, as the receipt reports it. */
type PaidBy = { readonly payer: string; readonly amount: string }

/** A forward still marked in flight this many upstream timeouts later belongs to a request that died (crash, lost store): it may be taken over. */
const STALE_FORWARD_TIMEOUTS = 4

/** The methods a service answers to: its declared one, and HEAD beside GET. */
const methodsOf = (entry: CatalogEntry): ReadonlyArray<string> => entry.method === "GET" ? ["GET", "HEAD"] : [entry.method]

/** The body the seller receives, and so the one a proof hashes: none for GET and HEAD, whatever the caller sent. */
const sentBody = (request: PaidCallRequest): Uint8Array | undefined =>
  request.method === "GET" || request.method === "HEAD" ? undefined : request.body

/**
 * Paid calls: a call without a valid payment gets a 402 challenge (x402 and
 * MPP), a price quote whose nonce names the service; a call with one is
 * verified on chain, proven to come from the delegate that paid (its signature
 * over this request), recorded (digest PRIMARY KEY, so a replay fails even
 * across replicas) and forwarded once to the seller. Each distinct payment of a
 * challenge is served once: consuming the nonce instead would let anyone who
 * read a payer's PaymentMade pay the same nonce, present first, and take its
 * call. A forward that fails is recorded, and the same credential may be
 * presented again to retry it; the seller's answer is kept, and the same
 * credential gets it again within `paidAnswerRetentionMs`. Every
 * `storeSweepIntervalMs` the answers kept longer are dropped (their payments
 * stay), on every replica (the update is idempotent).
 */
export class PaidCalls extends Context.Service<PaidCalls, {
  handle(request: PaidCallRequest): Effect.Effect<PaidCallResult, Refusal>
}>()("@gateway/server/PaidCalls") {
  static readonly layer = Layer.effect(
    PaidCalls,
    Effect.gen(function*() {
      const catalog = yield* Catalog
      const repo = yield* PaymentRepo
      const signers = yield* SignerRepo
      const chain = yield* Chain
      const publicUrl = yield* PublicUrl
      const config = yield* AppConfig
      const keys = yield* GatewayKeyRepo
      const upstream = yield* UpstreamForwarder
      const rateLimits = yield* RateLimits
      const batchedLimits = yield* BatchedLimits
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
      const challengeKey = yield* keys.getOrCreate("payment_challenge")
      const mppSecret = mppSecretOf(challengeKey)

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
          body: { ok: false, code: "PAYMENT_REQUIRED", message: "This call must be paid", reason, ...paymentRequired(terms, reason) },
          headers: challengeHeaders(terms, publicUrl.host, reason, mppSecret)
        }
      })

      // The seller has answered: a store that blinks now would strand the payment in flight for
      // the stale-forward bound and call the seller twice, so the settling write is retried briefly.
      const persist = <A, E>(write: Effect.Effect<A, E>) => write.pipe(Effect.retry({ schedule: Schedule.exponential("20 millis"), times: 6 }))
      const limits = {
        allowHosts: config.upstreamAllowHosts,
        // As `host:port` with the scheme's default port filled in, as the forwarder compares them.
        ownHosts: [hostPortOf(new URL(publicUrl.origin))],
        maxBodyBytes: config.upstreamMaxBodyBytes,
        timeoutMs: config.upstreamTimeoutMs
      }
      const proto = new URL(publicUrl.origin).protocol.replace(/:$/, "")

      /** The seller's answer as the payer receives it, with the receipt of what paid for it. */
      const answered = (target: Forwardable, credential: PaymentCredential, paid: PaidBy, answer: PaidAnswer) => {
        const settled = {
          network: suiNetwork(target.entry.network),
          digest: credential.digest,
          nonce: credential.nonce,
          payer: paid.payer,
          amount: paid.amount,
          answeredAt: answer.answeredAt
        }
        return {
          _tag: "Forwarded" as const,
          status: answer.status,
          body: answer.body,
          headers: {
            ...(answer.contentType === null ? {} : { "content-type": answer.contentType }),
            "payment-response": encodePaymentResponseHeader(settleResponse(settled)),
            "payment-receipt": Receipt.serialize(Receipt.from(mppReceipt(settled)))
          }
        }
      }

      /** Why a forward gave the payer nothing: always the seller's side, so the payment stays retryable. */
      const failureOf = (failure: Exclude<UpstreamAnswer["_tag"], "Answered">) => {
        switch (failure) {
          case "TooLarge":
            return new Unavailable({
              message: "The seller's answer was larger than this gateway returns; your payment is kept",
              reason: "upstream_answer_too_large_retry_with_the_same_credential"
            })
          case "Forbidden":
            return new Unavailable({
              message: "The seller's service is at an address this gateway does not call; your payment is kept",
              reason: "upstream_address_refused_retry_with_the_same_credential"
            })
          case "Failed":
            return new Unavailable({
              message: "The seller's service failed; your payment is kept",
              reason: "upstream_failed_retry_with_the_same_credential"
            })
        }
      }

      // Uninterruptible from here to the settled record: a caller who hangs up must not leave the payment stuck in flight.
      const forward = (request: PaidCallRequest, target: Forwardable, credential: PaymentCredential, paid: PaidBy) =>
        Effect.uninterruptible(forwardOnce(request, target, credential, paid))

      const forwardOnce = Effect.fnUntraced(function*(
        request: PaidCallRequest,
        target: Forwardable,
        credential: PaymentCredential,
        paid: PaidBy
      ) {
        // The seller's own credential, decrypted for this forward only; never logged.
        const secret = Option.getOrUndefined(Option.map(target.upstreamCredential, Redacted.value))
        const answer = yield* upstream.call({
          url: `${target.upstreamUrl}${request.search}`,
          method: request.method,
          headers: upstreamHeaders({ caller: request.headers, secret, clientAddress: request.clientAddress, proto, digest: credential.digest }),
          body: sentBody(request)
        }, limits)
        if (answer._tag !== "Answered" || answer.status >= 500) {
          yield* persist(repo.settleFailed(credential.digest, answer._tag === "Answered" ? answer.status : null))
          return yield* failureOf(answer._tag === "Answered" ? "Failed" : answer._tag)
        }
        const kept = { status: answer.status, contentType: answer.contentType, body: answer.body, answeredAt: yield* now }
        yield* persist(repo.settleForwarded(credential.digest, kept, kept.answeredAt))
        return answered(target, credential, paid, kept)
      })

      const proven = (request: PaidCallRequest, entry: CatalogEntry) => ({
        method: request.method,
        declaredMethod: entry.method,
        resourceUrl: entry.resourceUrl,
        search: request.search,
        body: sentBody(request) ?? new Uint8Array()
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
        // A transaction pays exactly one nonce (its one PaymentMade's memo), and the nonce names the service: a
        // payment answers only the challenge it paid, never a fresh one or another service's.
        if (payment.nonce !== credential.nonce) return yield* challenge(entry, "payment_for_another_challenge")
        // Digest and nonce are public: only the delegate that paid may use the payment again, for this same request.
        if (!(yield* provesPossession(credential, proven(request, entry), payment.payer))) return yield* challenge(entry, "payment_proof_invalid")
        if (payment.status === "refused") return yield* challenge(entry, `payment_refused_${payment.refusal ?? "earlier"}`)
        const paid = { payer: payment.payer, amount: payment.amount }
        if (payment.status === "forwarded") {
          const at = yield* now
          const kept = Option.filter(payment.answer, (a) => at.getTime() - a.answeredAt.getTime() <= config.paidAnswerRetentionMs)
          if (Option.isNone(kept)) {
            return yield* new Conflict({ message: "This payment was answered, and its answer is no longer kept", reason: "paid_answer_expired" })
          }
          return answered(target, credential, paid, kept.value)
        }
        if (!(yield* repo.reclaim(payment.digest, STALE_FORWARD_TIMEOUTS * config.upstreamTimeoutMs))) return yield* inFlight()
        return yield* forward(request, target, credential, paid)
      })

      /** A presented credential: a payment to verify and forward, or one recorded already to retry. */
      const present = Effect.fnUntraced(function*(request: PaidCallRequest, target: Forwardable, credential: PaymentCredential) {
        const { entry } = target
        const claims = openNonce(challengeKey, credential.nonce)
        if (claims === undefined || claims.serviceId !== entry.id) return yield* challenge(entry, "unknown_challenge")
        // The terms the challenge asked for: those of the revision it was minted under, even if the service changed since.
        const asked = yield* catalog.atRevision(claims.serviceId, claims.revision)

        // Before the expiry check: a payment already recorded stays usable for its retry, however late.
        // By digest alone: other payments of the same challenge are other calls, not this one.
        const existing = yield* repo.findPayment(credential.digest)
        if (Option.isSome(existing)) return yield* retry(request, target, credential, existing.value)

        // The challenge's own terms are what the payment must match, even if the service changed since.
        const tx = yield* chain.getTransaction(credential.digest)
        const paid = yield* verifyPayment({
          pkg: chain.pkg,
          amount: BigInt(asked.price),
          recipient: asked.payTo,
          nonce: credential.nonce
        }, tx)
        // Before anything is written: a credential that does not prove possession leaves the payment redeemable by its payer.
        if (!(yield* provesPossession(credential, proven(request, entry), paid.delegate))) return yield* challenge(entry, "payment_proof_invalid")
        const grant = Option.getOrUndefined(yield* signers.findPayingGrant(paid.grantObjectId))
        // Money moved but the call is refused or late: the payment is recorded (so the owner can reconcile it) and its digest is spent.
        // It keeps what its listings show, as it is now: the asked revision's terms, the grant's asset when the grant is ours.
        const record = (refusal: string | null) =>
          Effect.flatMap(now, (at) =>
            repo.claim({
              digest: credential.digest,
              nonce: credential.nonce,
              serviceId: entry.id,
              revision: claims.revision,
              serviceName: asked.name,
              asset: grant?.coinType ?? asked.asset,
              recipient: asked.payTo,
              grantObjectId: paid.grantObjectId,
              grantId: grant?.id ?? null,
              payer: paid.delegate,
              amount: paid.amount.toString(),
              refusal,
              now: at
            }))
        const acceptance = decideAcceptance({
          paidAtMs: Number(tx.timestampMs),
          challengeExpiresAtMs: claims.expiresAtMs,
          paidFromPool: paid.poolId,
          grant,
          asked: { serviceId: asked.id, method: asked.method, path: asked.path, payTo: asked.payTo, asset: asked.asset }
        })
        switch (acceptance._tag) {
          case "NoTimestamp":
            return yield* new Unavailable({ message: "The chain did not say when the payment was made", reason: "chain_gave_no_timestamp" })
          case "Late":
            yield* record("challenge_expired")
            return yield* challenge(entry, "challenge_expired")
          case "Refused":
            yield* record(acceptance.refusal)
            return yield* new Unverified(REFUSALS[acceptance.refusal](asked.asset))
          case "Accepted":
            break
        }
        if (!(yield* record(null))) return yield* inFlight()
        return yield* forward(request, target, credential, { payer: paid.delegate, amount: paid.amount.toString() })
      })

      const challengeQuota = perMinute(config.paymentChallengesPerMinute)
      const tooManyChallenges = {
        message: "Too many payment challenges asked for by this client: try again after Retry-After seconds",
        reason: "payment_challenges_rate_limited"
      }
      const presentationQuota = perMinute(config.paymentFailuresPerMinute)
      const tooManyFailures = {
        message: "Too many payment credentials from this client failed: try again after Retry-After seconds",
        reason: "payment_presentations_rate_limited"
      }
      /**
       * A presentation that did not fail by the presenter's doing: answered, or refused for a reason of the seller's, the
       * store's or the chain's. A fresh 402 for its credential, a payment that does not verify, and a presenter who hung
       * up (an interruption, no error) are the presenter's.
       */
      const notThePresentersFault = (exit: Exit.Exit<PaidCallResult, Refusal>) =>
        Exit.isSuccess(exit)
          ? exit.value._tag !== "PaymentRequired"
          : Option.exists(
            Cause.findErrorOption(exit.cause),
            (e) => !(e instanceof NotFinal || e instanceof Unverified || e instanceof TxFailed || e instanceof ForeignDigest)
          )

      const handle = Effect.fn("PaidCalls.handle")(function*(request: PaidCallRequest) {
        const target = yield* catalog.forForwarding(request.serviceId)
        const { entry } = target
        // A service is paid for, and called, only with its declared method: no other is challenged, accepted or forwarded.
        const allow = methodsOf(entry)
        if (!allow.includes(request.method)) return { _tag: "MethodNotAllowed" as const, allow }
        const credential = readCredential(request.headers, mppSecret)
        if (credential === undefined) {
          // Minting stays write-free: the limit is counted in memory and added to the store in batches.
          yield* batchedLimits.admit(`paid_challenges:${clientKey(request.clientAddress)}`, challengeQuota, tooManyChallenges)
          return yield* challenge(entry, "payment_required")
        }
        // Each credential costs a chain read: a client whose credentials keep failing (made-up digests on freely minted
        // nonces) is refused before that, counted in the store across replicas. Every presentation takes a unit before
        // the read, so neither a burst nor a hang-up gets past the count, and one that was not the presenter's failure
        // gives it back: a client that pays properly never reaches the limit.
        const taken = yield* rateLimits.take(`paid_presentation_failures:${clientKey(request.clientAddress)}`, presentationQuota, tooManyFailures)
        return yield* present(request, target, credential).pipe(
          Effect.onExit((exit) => notThePresentersFault(exit) ? Effect.ignore(rateLimits.giveBack(taken, 1)) : Effect.void)
        )
      })

      // Answers are kept for retries only: past the window they go, so the store does not grow with every call.
      const sweep = Effect.flatMap(now, (at) => repo.forgetAnswersBefore(new Date(at.getTime() - config.paidAnswerRetentionMs))).pipe(
        Effect.tap((dropped) => dropped > 0 ? Effect.logDebug("expired paid answers dropped", { dropped }) : Effect.void),
        // An outage is already logged by the store; the next sweep tries again.
        Effect.ignore
      )
      yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(Duration.millis(config.storeSweepIntervalMs))))

      return PaidCalls.of({ handle })
    })
  )
}
