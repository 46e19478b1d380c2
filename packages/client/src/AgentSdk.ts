import type { ClientWithCoreApi } from "@mysten/sui/client"
import type { Signer } from "@mysten/sui/cryptography"
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, decodePaymentSignatureHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import type { SettleResponse } from "@x402/core/types"
import { Effect, Schedule, Schema } from "effect"
import * as Kinds from "@gateway/chain/transactions/Kinds"
import type { SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import type { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import { type ManifestGrant, vouchedByGrant, vouchedOffer } from "@gateway/domain/payment/OfferVouching"
import { findSuiDelegateOffer, SUI_DELEGATE_SCHEME, type SuiDelegateOffer } from "@gateway/domain/payment/SuiDelegateOffer"
import { proofMessage, proofUrl, sha256Hex } from "@gateway/domain/PaymentProof"
import { memoOf } from "@gateway/domain/verify/PaymentVerifier"
import { untilCheckpointed } from "./Finality.ts"
import { readGrantState } from "./GrantState.ts"
import { executeKind, type GasOptions, type LedgerUnreachable } from "./OwnerWallet.ts"

/**
 * The SDK would not pay, or the chain would not let it: `reason` says which
 * rule. `digest` names the transaction when it reached the chain and failed
 * there (its gas was spent); a payment refused by the dry run has none.
 */
export class PaymentRefused extends Schema.TaggedError<PaymentRefused>()("PaymentRefused", {
  reason: Schema.String,
  digest: Schema.optionalKey(Schema.String)
}) {}

/**
 * The network failed after the payment was made. The payment is not lost:
 * presenting `credential` to the same URL again completes the call.
 */
export class DeliveryFailed extends Schema.TaggedError<DeliveryFailed>()("DeliveryFailed", {
  reason: Schema.String,
  digest: Schema.String,
  credential: Schema.String
}) {}

/** The gateway could not be reached before anything was paid. */
export class GatewayUnreachable extends Schema.TaggedError<GatewayUnreachable>()("GatewayUnreachable", { reason: Schema.String }) {}

export interface PaidResponse {
  readonly response: Response
  /** The gateway's settlement receipt, when the call was paid. */
  readonly receipt: SettleResponse | undefined
  readonly digest: string | undefined
  /**
   * The `PAYMENT-SIGNATURE` value the call was paid with. It proves possession
   * for this one request (method, URL, body): presenting it again with the same
   * request retries a failed forward or fetches the kept answer.
   */
  readonly credential: string | undefined
}

const refuse = (reason: string) => Effect.fail(new PaymentRefused({ reason }))

/** The gateway answers NOT_FINAL until the payment is checkpointed: wait for it, within bounds. */
const untilFinal = Schedule.spaced("100 millis")
/** How long a payment's checkpoint is waited for on the chain before the credential is presented regardless. */
const FINALITY_TIMEOUT_MS = 30_000

/** The package the manifest names: `pay` is called at its published-at id. */
export const packageOf = (manifest: ConnectionManifest): SpendAccountPackage => ({
  originalId: manifest.packageId,
  publishedAt: manifest.publishedAt,
  registryId: manifest.registryId
})

/** Registry refs by client and id: its initial shared version never changes, so each agent reads it once. */
const registryRefs = new WeakMap<ClientWithCoreApi, Map<string, Kinds.SharedRef>>()

/** The package's shared Registry as a `pay` names it, read from the chain the first time. */
const registryRef = (client: ClientWithCoreApi, registryId: string) =>
  Effect.gen(function*() {
    const known = registryRefs.get(client)?.get(registryId)
    if (known !== undefined) return known
    const { object } = yield* Effect.tryPromise({
      try: () => client.core.getObject({ objectId: registryId }),
      catch: (error) => new PaymentRefused({ reason: `the package's Registry ${registryId} could not be read: ${String(error)}` })
    })
    if (object.owner.$kind !== "Shared") return yield* refuse(`the object ${registryId} is not a shared Registry`)
    const ref = { objectId: registryId, initialSharedVersion: BigInt(object.owner.Shared.initialSharedVersion) }
    registryRefs.set(client, new Map(registryRefs.get(client)).set(registryId, ref))
    return ref
  })

/**
 * Refuses, before anything is signed, a payment the grant on chain would
 * refuse: a recipient it does not list, or more than its window has left now.
 * Read fresh for every payment: the window counts payments made elsewhere too.
 */
export const vouchOnChain = (input: {
  readonly client: ClientWithCoreApi
  readonly pkg: SpendAccountPackage
  readonly grant: ManifestGrant
  readonly offer: SuiDelegateOffer
  readonly amount: bigint
}) =>
  Effect.gen(function*() {
    const { state, chainNowMs } = yield* Effect.tryPromise({
      try: () => readGrantState(input.client, { packageId: input.pkg.originalId, grantObjectId: input.grant.grantObjectId }),
      catch: (error) => new PaymentRefused({ reason: `the grant ${input.grant.grantObjectId} could not be read from the chain: ${String(error)}` })
    })
    // The chain's Clock rolls the window in `pay`; a payer's own clock may be off by more than a window's edge.
    const vouching = vouchedByGrant(state, { amount: input.amount, recipient: input.offer.payTo, asset: input.offer.asset }, chainNowMs)
    if (vouching._tag === "Refused") return yield* refuse(vouching.reason)
  })

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
  readonly offer: SuiDelegateOffer
  readonly amount: bigint
  readonly gas?: GasOptions
}) =>
  Effect.gen(function*() {
    const { grant, offer, signer } = input
    const registry = yield* registryRef(input.client, input.pkg.registryId)
    const kind = yield* Effect.promise(() =>
      Kinds.pay(input.pkg, {
        sender: signer.toSuiAddress(),
        registry,
        grant: { objectId: grant.grantObjectId, initialSharedVersion: BigInt(grant.grantInitialSharedVersion) },
        pool: { objectId: grant.pool, initialSharedVersion: BigInt(grant.poolInitialSharedVersion) },
        coinType: grant.coinType,
        amount: input.amount,
        recipient: offer.payTo,
        memo: memoOf(offer.extra.nonce)
      })
    )
    const executed = yield* executeKind(kind.txKindBytes, signer, input.client, input.gas).pipe(
      Effect.catchTag("KindRefused", (refused) => refuse(`the chain refused the payment: ${refused.reason}`))
    )
    if (executed.status === "failure") {
      return yield* Effect.fail(new PaymentRefused({ reason: `the chain refused the payment: ${executed.error ?? "failure"}`, digest: executed.digest }))
    }
    return executed.digest
  })

/**
 * An agent that pays for calls with its own key through the grant its owner
 * provisioned. It checks every challenge against the manifest before paying
 * (the gateway's origin, the package, the policy and caps) and against the
 * grant on chain (its recipients, what its window has left), and refuses a
 * mismatch locally. It pays each challenge at most once: a challenge it has
 * paid, and a request it has paid for that did not get its answer, are
 * presented again with the same payment rather than paid again. It signs
 * every credential's proof of possession with its key. It executes its `pay`
 * through `client` (a `SuiGrpcClient` of the manifest's network), which
 * prices and pays gas; `gas` is for agents that pay concurrently and give each
 * payment a coin of its own. The key never leaves it.
 */
export const makeAgent = (options: {
  readonly manifest: ConnectionManifest
  readonly signer: Signer
  readonly client: ClientWithCoreApi
  readonly gas?: Effect.Effect<GasOptions, LedgerUnreachable>
}) => {
  const { manifest, signer, client } = options
  const pkg = packageOf(manifest)
  /** Challenge nonce → the digest that paid it: a challenge is never paid twice. */
  const paidNonces = new Map<string, string>()
  /** Request (method, URL, body hash) → credential of a payment whose answer it has not received yet. */
  const unanswered = new Map<string, string>()

  const choose = (required: { accepts: ReadonlyArray<unknown> }, url: URL, method: string) =>
    Effect.gen(function*() {
      const offer = findSuiDelegateOffer(required.accepts)
      if (offer === undefined) return yield* refuse(`no ${SUI_DELEGATE_SCHEME} offer in the challenge`)
      const vouching = vouchedOffer(manifest, offer, Date.now(), { url, method })
      if (vouching._tag === "Refused") return yield* refuse(vouching.reason)
      return { offer, amount: vouching.amount, grant: vouching.grant }
    })

  /** The credential for one request: the payment, and the proof that this agent made it for exactly this request. */
  const credentialFor = (
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

  /** Presents a credential, waiting (within bounds) while the gateway says the payment is not final yet. */
  const present = (url: string, init: RequestInit, body: Uint8Array<ArrayBuffer> | undefined, credential: string, digest: string) =>
    Effect.tryPromise({
      try: async () => {
        const headers = { ...Object.fromEntries(new Headers(init.headers)), "payment-signature": credential }
        const response = await fetch(url, { ...init, headers, ...(body === undefined ? {} : { body }) })
        const notFinal = response.status === 409 && (await response.clone().json().catch(() => ({})) as { code?: string }).code === "NOT_FINAL"
        return { response, notFinal }
      },
      catch: (e) => new DeliveryFailed({ reason: String(e), digest, credential })
    }).pipe(Effect.repeat({ schedule: untilFinal, until: (r) => !r.notFinal, times: 100 }))

  const result = (response: Response, digest: string, credential: string): PaidResponse => {
    const receiptHeader = response.headers.get("payment-response")
    return { response, receipt: receiptHeader === null ? undefined : decodePaymentResponseHeader(receiptHeader), digest, credential }
  }

  /**
   * Whether the payment is done with: the seller answered (a receipt came), or the gateway gave a final
   * refusal. A seller's failure (5xx) or a payment still in flight (409) leaves it to be presented again.
   */
  const answeredBy = (response: Response) => response.headers.has("payment-response") || (response.status < 500 && response.status !== 409)

  const fetchPaid = (url: string, init: RequestInit = {}) =>
    Effect.gen(function*() {
      const method = (init.method ?? "GET").toUpperCase()
      const target = URL.parse(url)
      if (target === null) return yield* refuse("not a URL")
      // The body is read once, so that what is hashed into the proof is exactly what is sent.
      const raw = init.body
      const body = raw === undefined || raw === null
        ? undefined
        : new Uint8Array(yield* Effect.tryPromise({
          try: () => new Response(raw).arrayBuffer(),
          catch: () => new PaymentRefused({ reason: "the request body cannot be read" })
        }))
      const bodySha256 = yield* Effect.promise(() => sha256Hex(body ?? new Uint8Array()))
      const requestKey = `${method} ${target.href} ${bodySha256}`

      // A request already paid for and not yet answered is presented again, never paid again.
      const pending = unanswered.get(requestKey)
      if (pending !== undefined) {
        const digest = String(decodePaymentSignatureHeader(pending).payload["digest"])
        const again = yield* present(url, init, body, pending, digest)
        if (again.response.status !== 402) {
          if (answeredBy(again.response)) unanswered.delete(requestKey)
          return result(again.response, digest, pending)
        }
        unanswered.delete(requestKey)
      }

      const first = yield* Effect.tryPromise({
        try: () => fetch(url, { ...init, ...(body === undefined ? {} : { body }) }),
        catch: (e) => new GatewayUnreachable({ reason: String(e) })
      })
      if (first.status !== 402) return { response: first, receipt: undefined, digest: undefined, credential: undefined } satisfies PaidResponse
      const header = first.headers.get("payment-required")
      if (header === null) return yield* refuse("a 402 without a PAYMENT-REQUIRED challenge")
      const required = yield* Effect.try({ try: () => decodePaymentRequiredHeader(header), catch: () => new PaymentRefused({ reason: "unreadable challenge" }) })
      const { offer, amount, grant } = yield* choose(required, target, method)
      const nonce = offer.extra.nonce

      const gas = options.gas === undefined ? undefined : yield* options.gas
      const digest = paidNonces.get(nonce) ??
        (yield* Effect.andThen(
          vouchOnChain({ client, pkg, grant, offer, amount }),
          payOffer({ pkg, signer, client, grant, offer, amount, ...(gas === undefined ? {} : { gas }) })
        ))
      paidNonces.set(nonce, digest)
      const credential = yield* credentialFor(offer, digest, { method, resourceUrl: offer.extra.resourceUrl, search: target.search, bodySha256 })
      unanswered.set(requestKey, credential)
      // Read from the chain, not by calling the gateway again: a payment not checkpointed in time is presented anyway,
      // and the gateway's NOT_FINAL answers are waited out as before.
      yield* Effect.ignore(Effect.tryPromise(() => untilCheckpointed(client, digest, FINALITY_TIMEOUT_MS)))
      const paid = yield* present(url, init, body, credential, digest)
      if (answeredBy(paid.response)) unanswered.delete(requestKey)
      return result(paid.response, digest, credential)
    })

  return { fetchPaid, address: signer.toSuiAddress() }
}
