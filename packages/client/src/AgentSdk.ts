import type { ClientWithCoreApi } from "@mysten/sui/client"
import type { Signer } from "@mysten/sui/cryptography"
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import type { PaymentRequired, PaymentRequirements, SettleResponse } from "@x402/core/types"
import { Effect, Schedule, Schema } from "effect"
import type { SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import type { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import { type ExactOffer, findExactOffer } from "@gateway/domain/payment/ExactOffer"
import { type ManifestGrant, vouchedOffer } from "@gateway/domain/payment/OfferVouching"
import type { SessionOffer } from "@gateway/domain/payment/SessionOffer"
import { findSuiDelegateOffer, SUI_DELEGATE_SCHEME, type SuiDelegateOffer } from "@gateway/domain/payment/SuiDelegateOffer"
import { proofMessage, proofUrl, sha256Hex } from "@gateway/domain/PaymentProof"
import { untilCheckpointed } from "./Finality.ts"
import { grantPayKind, packageOf, type PaidOffer, vouchOnChain } from "./GrantPayment.ts"
import { executeKind, type GasOptions, type LedgerUnreachable } from "./OwnerWallet.ts"
import { PaymentRefused } from "./PaymentRefused.ts"
import { makeSessionBook, type SessionBook } from "./SessionBook.ts"
import { paySession, sessionOfferIn } from "./SessionPayments.ts"
import { voucherReference } from "./SessionVouchers.ts"
import { vouchedSessionOffer } from "./SessionVouching.ts"
import { makeSignedPayments } from "./SignedPayments.ts"
import { signFirstPayment } from "./SignFirstPayment.ts"

// Kept importable from here, where agents and @gateway/sui-pay have always found them.
export { packageOf, PaymentRefused, vouchOnChain }
export type { SessionClose } from "./SessionClosing.ts"

/**
 * The network failed after the payment was made (upfront) or signed (sign-first). The payment is not lost:
 * presenting `credential` to the same URL again completes the call, and never pays twice.
 */
export class DeliveryFailed extends Schema.TaggedError<DeliveryFailed>()("DeliveryFailed", {
  reason: Schema.String,
  digest: Schema.String,
  credential: Schema.String
}) {}

/** The gateway could not be reached before anything was paid. */
export class GatewayUnreachable extends Schema.TaggedError<GatewayUnreachable>()("GatewayUnreachable", { reason: Schema.String }) {}

/**
 * How the agent pays a challenge. `sign-first` (the default, when the 402 offers `exact`): it signs the payment
 * and the gateway executes it only once the seller has answered, so a failed call costs nothing; with the offer's
 * gas station the agent needs no SUI. `upfront`: it executes `pay` itself (paying gas) and presents the digest,
 * as before sign-first existed; also what the agent falls back to when a 402 offers no `exact`. `session`: for
 * many calls to one seller, it opens a session (a deposit from the grant, on chain, once) and pays each call with
 * a voucher signed off chain (see `SessionBook.ts`); sign-first, then upfront, when a 402 offers no session.
 */
export type PaymentMode = "sign-first" | "upfront" | "session"

export interface PaidResponse {
  readonly response: Response
  /** The gateway's settlement receipt, when the call was paid. */
  readonly receipt: SettleResponse | undefined
  /** The paying transaction's digest: executed (upfront), or signed and executed only if `charged` (sign-first). */
  readonly digest: string | undefined
  /**
   * Whether money moved: an upfront payment was executed before it was presented; a sign-first one only once the
   * gateway settled it (the receipt says so). A sign-first call whose seller failed is not charged.
   */
  readonly charged: boolean
  /**
   * The `PAYMENT-SIGNATURE` value the call was paid with: the digest and a proof
   * of possession for this one request (upfront), or the signed transaction
   * (sign-first). Presenting it again with the same request retries a failed
   * forward or fetches the kept answer, and never pays twice.
   */
  readonly credential: string | undefined
  /** For a call paid from a session: the session and the cumulative amount of the voucher presented. */
  readonly session?: { readonly sessionId: string; readonly cumulative: bigint }
}

const refuse = (reason: string) => Effect.fail(new PaymentRefused({ reason }))

/** The gateway answers NOT_FINAL until the payment is checkpointed: wait for it, within bounds. */
const untilFinal = Schedule.spaced("100 millis")
/** How long a payment's checkpoint is waited for on the chain before the credential is presented regardless. */
const FINALITY_TIMEOUT_MS = 30_000

/**
 * Pays an offer through the grant: `<publishedAt>::spend_account::pay<T>(registry,
 * grant, pool, amount, recipient, memo = UTF-8 of the nonce, clock)`, signed by the
 * agent's key and executed through `client`. Answers the digest; a payment the
 * chain refused fails with its reason (and its digest when it reached the chain).
 */
export const payOffer = (input: {
  readonly pkg: SpendAccountPackage
  readonly signer: Signer
  readonly client: ClientWithCoreApi
  readonly grant: ManifestGrant
  readonly offer: PaidOffer
  readonly amount: bigint
  readonly gas?: GasOptions
}) =>
  Effect.gen(function*() {
    const { signer } = input
    const kind = yield* grantPayKind({ ...input, sender: signer.toSuiAddress() })
    const executed = yield* executeKind(kind, signer, input.client, input.gas).pipe(
      Effect.catchTag("KindRefused", (refused) => refuse(`the chain refused the payment: ${refused.reason}`))
    )
    if (executed.status === "failure") {
      return yield* Effect.fail(new PaymentRefused({ reason: `the chain refused the payment: ${executed.error ?? "failure"}`, digest: executed.digest }))
    }
    return executed.digest
  })

/** A credential presented for a request whose answer has not come back yet, and until when it may be presented. */
interface Pending {
  readonly flow: PaymentMode
  readonly credential: string
  readonly digest: string
  /** A sign-first payment stops being presentable with its challenge; an executed (upfront) one never does. */
  readonly expiresAtMs: number
  /**
   * A new signed payment for the same challenge (sign-first only), for when the gateway kept the seller's answer
   * but the network will never execute these bytes (`payment_must_be_signed_again`): the kept answer is settled
   * against the new payment, with no second forward.
   */
  readonly signAgain?: Effect.Effect<Pending, PaymentRefused>
}

/** The gateway's reason in an error body, if it has one. */
const reasonOf = (response: Response) =>
  Effect.promise(() =>
    response.clone().json().then(
      (body: unknown) => typeof body === "object" && body !== null && "reason" in body && typeof body.reason === "string" ? body.reason : "",
      () => ""
    )
  )

/** The offer an agent pays a 402 with, vouched for by its manifest. */
type Chosen =
  | {
    readonly _tag: "SignFirst"
    readonly offer: ExactOffer
    /** The offer exactly as the 402 carried it: x402's `accepted` echoes it verbatim. */
    readonly accepted: PaymentRequirements
    readonly grant: ManifestGrant
    readonly amount: bigint
  }
  | { readonly _tag: "Upfront"; readonly offer: SuiDelegateOffer; readonly grant: ManifestGrant; readonly amount: bigint }
  | {
    readonly _tag: "Session"
    readonly offer: SessionOffer
    readonly accepted: PaymentRequirements
    readonly grant: ManifestGrant
    readonly amount: bigint
  }

/** The `exact` offer among a 402's `accepts`, decoded, beside the entry as it came. */
const exactOfferIn = (accepts: ReadonlyArray<PaymentRequirements>) => {
  for (const accepted of accepts) {
    const offer = findExactOffer([accepted])
    if (offer !== undefined) return { offer, accepted }
  }
  return undefined
}

/**
 * Whether the payment is done with: the seller answered (a receipt came), or the gateway gave a final refusal. A
 * seller's failure (5xx: for a sign-first payment, nothing was charged) or a payment still in flight (409) leaves
 * it to be presented again, the same bytes.
 */
const answeredBy = (response: Response) => response.headers.has("payment-response") || (response.status < 500 && response.status !== 409)

/**
 * Pays a call with a voucher of the session of the offer's payee and asset (see `paySession`), sent by `present`
 * with the credential and the voucher's reference (the session and the amount: what the receipt names).
 */
const payFromSession = <E>(
  sessions: SessionBook,
  chosen: Extract<Chosen, { _tag: "Session" }>,
  present: (credential: string, reference: string) => Effect.Effect<Response, E>
) =>
  Effect.gen(function*() {
    const { offer, accepted, grant, amount } = chosen
    const call = yield* paySession(sessions, {
      offer,
      accepted,
      grant,
      price: amount,
      present: (credential, voucher) => present(credential, voucherReference(voucher))
    })
    const receiptHeader = call.response.headers.get("payment-response")
    return {
      response: call.response,
      receipt: receiptHeader === null ? undefined : decodePaymentResponseHeader(receiptHeader),
      digest: undefined,
      charged: call.charged,
      credential: call.credential,
      session: { sessionId: call.voucher.sessionId, cumulative: call.voucher.cumulative }
    } satisfies PaidResponse
  })

/** A request as the agent sends it, with each credential it presents: its body read once. */
interface Outgoing {
  readonly url: string
  readonly init: RequestInit
  readonly body: Uint8Array<ArrayBuffer> | undefined
}

/** The request's body as bytes, read once, so that what is hashed into the proof is exactly what is sent. */
const bodyBytes = (init: RequestInit) =>
  Effect.gen(function*() {
    const raw = init.body
    if (raw === undefined || raw === null) return undefined
    return new Uint8Array(yield* Effect.tryPromise({
      try: () => new Response(raw).arrayBuffer(),
      catch: () => new PaymentRefused({ reason: "the request body cannot be read" })
    }))
  })

/** The challenge a 402 carries in its PAYMENT-REQUIRED header. */
const challengeOf = (response: Response) =>
  Effect.gen(function*() {
    const header = response.headers.get("payment-required")
    if (header === null) return yield* refuse("a 402 without a PAYMENT-REQUIRED challenge")
    return yield* Effect.try({ try: () => decodePaymentRequiredHeader(header), catch: () => new PaymentRefused({ reason: "unreadable challenge" }) })
  })

/** The grant and amount the manifest vouches for paying `offer` for this request, or its refusal. */
const vouch = (manifest: ConnectionManifest, offer: ExactOffer | SuiDelegateOffer, url: URL, method: string) => {
  const vouching = vouchedOffer(manifest, offer, Date.now(), { url, method })
  return vouching._tag === "Refused" ? refuse(vouching.reason) : Effect.succeed(vouching)
}

/** The offer to pay the challenge with in `mode`, vouched for by the manifest: a session, else `exact`, else the delegate scheme. */
const chooseOffer = (manifest: ConnectionManifest, required: PaymentRequired, url: URL, method: string, mode: PaymentMode): Effect.Effect<Chosen, PaymentRefused> =>
  Effect.gen(function*() {
    const session = mode === "session" ? sessionOfferIn(required.accepts) : undefined
    if (session !== undefined) {
      const vouching = vouchedSessionOffer(manifest, session.offer, Date.now(), { url, method })
      if (vouching._tag === "Refused") return yield* refuse(vouching.reason)
      return { _tag: "Session", offer: session.offer, accepted: session.accepted, grant: vouching.grant, amount: vouching.amount }
    }
    const exact = mode === "upfront" ? undefined : exactOfferIn(required.accepts)
    if (exact !== undefined) {
      const { grant, amount } = yield* vouch(manifest, exact.offer, url, method)
      return { _tag: "SignFirst", offer: exact.offer, accepted: exact.accepted, grant, amount }
    }
    const offer = findSuiDelegateOffer(required.accepts)
    if (offer === undefined) return yield* refuse(`no exact or ${SUI_DELEGATE_SCHEME} offer in the challenge`)
    const { grant, amount } = yield* vouch(manifest, offer, url, method)
    return { _tag: "Upfront", offer, grant, amount }
  })

/** Presents a credential, waiting (within bounds) while the gateway says the payment is not final yet. */
const present = ({ url, init, body }: Outgoing, credential: string, digest: string) =>
  Effect.tryPromise({
    try: async () => {
      const headers = { ...Object.fromEntries(new Headers(init.headers)), "payment-signature": credential }
      const response = await fetch(url, { ...init, headers, ...(body === undefined ? {} : { body }) })
      const notFinal = response.status === 409 && (await response.clone().json().catch(() => ({})) as { code?: string }).code === "NOT_FINAL"
      return { response, notFinal }
    },
    catch: (e) => new DeliveryFailed({ reason: String(e), digest, credential })
  }).pipe(Effect.repeat({ schedule: untilFinal, until: (r) => !r.notFinal, times: 100 }))

/**
 * Presents a payment; when the gateway answers that a sign-first payment must be signed again (the seller
 * answered, but the network will never execute the signed bytes), signs the same challenge anew and presents that.
 */
const presentPayment = (outgoing: Outgoing, payment: Pending) =>
  Effect.gen(function*() {
    const { response } = yield* present(outgoing, payment.credential, payment.digest)
    if (payment.signAgain === undefined || response.status !== 409) return { response, payment }
    if (!(yield* reasonOf(response)).startsWith("payment_must_be_signed_again")) return { response, payment }
    const again = yield* payment.signAgain
    return { response: (yield* present(outgoing, again.credential, again.digest)).response, payment: again }
  })

/** What a call paid with `payment` got: the answer, the receipt if any, and whether money moved. */
const paidResponse = (response: Response, payment: Pending): PaidResponse => {
  const receiptHeader = response.headers.get("payment-response")
  const receipt = receiptHeader === null ? undefined : decodePaymentResponseHeader(receiptHeader)
  const charged = payment.flow === "upfront" || receipt?.success === true
  return { response, receipt, digest: payment.digest, charged, credential: payment.credential }
}

/** Pays the call with a voucher of the session of the offer's payee and asset. */
const paySessionCall = (sessions: SessionBook, chosen: Extract<Chosen, { _tag: "Session" }>, outgoing: Outgoing) =>
  payFromSession(sessions, chosen, (credential, reference) => Effect.map(present(outgoing, credential, reference), (presented) => presented.response))

/** What an agent pays with: its package, key, client and, when it pays its own gas concurrently, a coin per payment. */
interface Payer {
  readonly pkg: SpendAccountPackage
  readonly signer: Signer
  readonly client: ClientWithCoreApi
  readonly gas: Effect.Effect<GasOptions, LedgerUnreachable> | undefined
}

/** The credential for one request: the payment, and the proof that this agent made it for exactly this request. */
const credentialFor = (
  signer: Signer,
  offer: SuiDelegateOffer,
  digest: string,
  request: { readonly method: string; readonly resourceUrl: string; readonly search: string; readonly bodySha256: string }
) =>
  Effect.gen(function*() {
    const nonce = offer.extra.nonce
    const message = proofMessage({ nonce, digest, method: request.method, url: proofUrl(request.resourceUrl, request.search), bodySha256: request.bodySha256 })
    if (message === undefined) return yield* refuse("the request cannot be bound to a payment proof")
    const { signature } = yield* Effect.promise(() => signer.signPersonalMessage(message))
    return encodePaymentSignatureHeader({ x402Version: 2, accepted: offer, payload: { digest, proof: signature } })
  })

/** Upfront payment: executes `pay` (once per challenge), then the credential: the digest and this request's proof of possession. */
const upfrontPayments = ({ pkg, signer, client, gas: gasOptions }: Payer) => {
  /** Challenge nonce → the digest that paid it upfront: a challenge is never paid twice. */
  const paidNonces = new Map<string, string>()
  return (chosen: Extract<Chosen, { _tag: "Upfront" }>, request: { readonly method: string; readonly target: URL; readonly bodySha256: string }) =>
    Effect.gen(function*() {
      const { offer, grant, amount } = chosen
      const nonce = offer.extra.nonce
      const gas = gasOptions === undefined ? undefined : yield* gasOptions
      const digest = paidNonces.get(nonce) ??
        (yield* Effect.andThen(
          vouchOnChain({ client, pkg, grant, offer, amount }),
          payOffer({ pkg, signer, client, grant, offer, amount, ...(gas === undefined ? {} : { gas }) })
        ))
      paidNonces.set(nonce, digest)
      const credential = yield* credentialFor(signer, offer, digest, { ...request, resourceUrl: offer.extra.resourceUrl, search: request.target.search })
      // Read from the chain, not by calling the gateway again: a payment not checkpointed in time is presented anyway,
      // and the gateway's NOT_FINAL answers are waited out as before.
      yield* Effect.ignore(Effect.tryPromise(() => untilCheckpointed(client, digest, FINALITY_TIMEOUT_MS)))
      return { flow: "upfront", credential, digest, expiresAtMs: Number.POSITIVE_INFINITY } satisfies Pending
    })
}

/**
 * Sign-first payment: signs the challenge's one payment (or finds it signed) and wraps it as x402 `exact`:
 * `accepted` is the offer as the 402 carried it, `payload` the scheme document's `{ signature, transaction }`.
 */
const signFirstPayments = ({ pkg, signer, client, gas: gasOptions }: Payer, gatewayOrigin: string) => {
  /** Challenge nonce → its one signed payment, while the challenge lasts. */
  const signedPayments = makeSignedPayments<PaymentRefused>()
  const paySignFirst = (chosen: Extract<Chosen, { _tag: "SignFirst" }>, required: PaymentRequired): Effect.Effect<Pending, PaymentRefused> =>
    Effect.gen(function*() {
      const { offer, grant, amount } = chosen
      const sign = Effect.gen(function*() {
        yield* vouchOnChain({ client, pkg, grant, offer, amount })
        // Gas options are for paying one's own gas; a sponsored payment names the station's coin.
        const gas = gasOptions === undefined || offer.extra.gasStation !== undefined ? undefined : yield* gasOptions
        return yield* signFirstPayment({ pkg, signer, client, grant, offer, amount, gatewayOrigin, ...(gas === undefined ? {} : { gas }) })
      }).pipe(Effect.catchTag("LedgerUnreachable", (e) => refuse(`the chain cannot be reached for gas: ${e.reason}`)))
      const signed = yield* signedPayments.once(offer.extra.nonce, Date.parse(offer.extra.expiresAt), sign)
      const credential = encodePaymentSignatureHeader({
        x402Version: 2,
        ...(required.resource === undefined ? {} : { resource: required.resource }),
        accepted: chosen.accepted,
        payload: { signature: signed.signature, transaction: signed.transaction }
      })
      const signAgain = Effect.andThen(signedPayments.forget(offer.extra.nonce), paySignFirst(chosen, required))
      return { flow: "sign-first", credential, digest: signed.digest, expiresAtMs: signed.expiresAtMs, signAgain } satisfies Pending
    })
  return paySignFirst
}

/**
 * An agent that pays for calls with its own key through the grant its owner
 * provisioned. It checks every challenge against the manifest before paying
 * (the gateway's origin, the package, the policy and caps) and against the
 * grant on chain (its recipients, what its window has left), and refuses a
 * mismatch locally.
 *
 * By default it pays sign-first when the 402 offers `exact`: it signs one
 * `pay` through its grant without executing it, with the offer's gas station
 * paying the gas (the agent needs no SUI; the station's answer is checked to
 * be exactly that payment before it is signed), and the gateway executes it
 * only after the seller answered. A call whose seller failed (503, nothing
 * charged) is presented again with the same signed bytes on the next
 * `fetchPaid` of the same request, never signed anew, except when the gateway
 * kept the seller's answer but the network will never execute those bytes
 * (`payment_must_be_signed_again`: a new epoch, gas price or gas coin): then
 * the same challenge is signed anew and settles the kept answer. `payment: "upfront"`
 * (and a 402 without `exact`) executes the payment first and presents its
 * digest with a proof of possession; `gas` is for agents that pay their own
 * gas concurrently and give each payment a coin of its own.
 *
 * Either way it pays each challenge at most once, and a request it has paid
 * for that did not get its answer is presented again with the same payment
 * rather than paid again. The key never leaves it.
 *
 * `payment: "session"` (or `fetchPaid`'s third argument, per call) pays from
 * payment sessions: one deposit per seller and asset, opened on chain with the
 * agent's key and gas for `sessionCalls` calls (within what the grant has
 * left), then a voucher per call signed with a fresh session key. A seller's
 * failure costs nothing and the next call presents the same voucher.
 * `closeSessions()` closes every session it opened, returning what was not
 * used to the pool and the grant's budget.
 */
export const makeAgent = (options: {
  readonly manifest: ConnectionManifest
  readonly signer: Signer
  readonly client: ClientWithCoreApi
  readonly gas?: Effect.Effect<GasOptions, LedgerUnreachable>
  /** `sign-first` unless set; see `PaymentMode`. */
  readonly payment?: PaymentMode
  /** With `payment: "session"`: how many calls a new session's deposit pays for; 100 unless set. */
  readonly sessionCalls?: number
}) => {
  const { manifest, signer, client } = options
  const payer: Payer = { pkg: packageOf(manifest), signer, client, gas: options.gas }
  const payUpfront = upfrontPayments(payer)
  const paySignFirst = signFirstPayments(payer, URL.parse(manifest.apiBaseUrl)?.origin ?? manifest.apiBaseUrl)
  /** Request (method, URL, body hash) → credential of a payment whose answer it has not received yet. */
  const unanswered = new Map<string, Pending>()
  /** The agent's payment sessions, opened on demand when it pays with `session`. */
  const sessions = makeSessionBook({
    manifest,
    signer,
    client,
    ...(options.sessionCalls === undefined ? {} : { sessionCalls: options.sessionCalls }),
    ...(options.gas === undefined ? {} : { gas: options.gas })
  })

  /** What the call got; its payment is kept to be presented again unless the gateway is done with it. */
  const recorded = (requestKey: string, presented: { readonly response: Response; readonly payment: Pending }) => {
    if (answeredBy(presented.response)) unanswered.delete(requestKey)
    else unanswered.set(requestKey, presented.payment)
    return paidResponse(presented.response, presented.payment)
  }

  /** Pays the 402's challenge in `mode` and presents the payment. */
  const payChallenge = (
    outgoing: Outgoing,
    request: { readonly method: string; readonly target: URL; readonly bodySha256: string; readonly key: string },
    challenge: Response,
    mode: PaymentMode
  ) =>
    Effect.gen(function*() {
      const required = yield* challengeOf(challenge)
      const chosen = yield* chooseOffer(manifest, required, request.target, request.method, mode)
      if (chosen._tag === "Session") return yield* paySessionCall(sessions, chosen, outgoing)
      const payment = chosen._tag === "SignFirst"
        ? yield* paySignFirst(chosen, required)
        : yield* payUpfront(chosen, request)
      unanswered.set(request.key, payment)
      return recorded(request.key, yield* presentPayment(outgoing, payment))
    })

  const fetchPaid = (url: string, init: RequestInit = {}, how: { readonly payment?: PaymentMode } = {}) =>
    Effect.gen(function*() {
      const method = (init.method ?? "GET").toUpperCase()
      const target = URL.parse(url)
      if (target === null) return yield* refuse("not a URL")
      const body = yield* bodyBytes(init)
      const outgoing: Outgoing = { url, init, body }
      const bodySha256 = yield* Effect.promise(() => sha256Hex(body ?? new Uint8Array()))
      const requestKey = `${method} ${target.href} ${bodySha256}`

      // A request already paid for (or signed for) and not yet answered is presented again, never paid again.
      const pending = unanswered.get(requestKey)
      if (pending !== undefined && pending.expiresAtMs > Date.now()) {
        const again = yield* presentPayment(outgoing, pending)
        if (again.response.status !== 402) return recorded(requestKey, again)
      }
      unanswered.delete(requestKey)

      const first = yield* Effect.tryPromise({
        try: () => fetch(url, { ...init, ...(body === undefined ? {} : { body }) }),
        catch: (e) => new GatewayUnreachable({ reason: String(e) })
      })
      if (first.status !== 402) return { response: first, receipt: undefined, digest: undefined, charged: false, credential: undefined } satisfies PaidResponse
      return yield* payChallenge(outgoing, { method, target, bodySha256, key: requestKey }, first, how.payment ?? options.payment ?? "sign-first")
    })

  // The sessions this agent opened (deposit, expiry, what was charged on each), and closing them.
  return { fetchPaid, closeSessions: sessions.closeAll, sessions: sessions.sessions, address: signer.toSuiAddress() }
}
