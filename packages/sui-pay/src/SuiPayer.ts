import type { ClientWithCoreApi } from "@mysten/sui/client"
import type { Signer } from "@mysten/sui/cryptography"
import { Effect } from "effect"
import { packageOf, payOffer, vouchOnChain } from "@gateway/client/AgentSdk"
import type { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import { type Vouching, vouchedOffer } from "@gateway/domain/payment/OfferVouching"
import type { SuiPaymentPayload } from "@gateway/domain/payment/PaymentCredential"
import type { SuiDelegateOffer } from "@gateway/domain/payment/SuiDelegateOffer"
import { challengeProofMessage } from "@gateway/domain/PaymentProof"
import { untilCheckpointed } from "@gateway/client/Finality"
import { requestBeingPaid, UNKNOWN_REQUEST } from "./PaidRequest.ts"

type Vouched = Extract<Vouching, { readonly _tag: "Vouched" }>

export interface SuiPayerOptions {
  /** The agent's own key: the grant's delegate. It signs the payment and the proof, and never leaves the payer. */
  readonly signer: Signer
  /** The agent's connection manifest (`GET /v1/delegated-signers/{id}/manifest`). */
  readonly manifest: ConnectionManifest
  /** A client of the manifest's network (a `SuiGrpcClient`). */
  readonly client: ClientWithCoreApi
  /** How long to wait for the payment's checkpoint; 30 s unless set. */
  readonly finalityTimeoutMs?: number
}

/**
 * Pays `sui-delegate` offers for clients that see only the challenge (an
 * x402 `SchemeNetworkClient`, an mppx client method). Each offer is checked
 * against the manifest and the request being paid for (`paidFetch` /
 * `payingFor`) first: the request is on the origin of the manifest's
 * `apiBaseUrl`, at the path of the offer's resource, with its method; then the
 * package, network, asset, per-payment cap, grant and challenge expiry and the
 * owner's policy; then, read from the chain, the grant's recipients and what
 * its window has left. Outside `payingFor` the request is unknown, so nothing is
 * paid: a foreign website's copy of a gateway 402 looks exactly like the real
 * one. An accepted offer is paid through the grant, waited on until
 * checkpointed, and answered with the digest and a challenge-bound proof of
 * possession (@gateway/domain/PaymentProof). An offer's nonce is paid at most
 * once, however often it is asked for, even concurrently; a payment that
 * failed may be asked for again.
 */
export const makeSuiPayer = (options: SuiPayerOptions) => {
  const { signer, manifest, client } = options
  const pkg = packageOf(manifest)
  const finalityTimeoutMs = options.finalityTimeoutMs ?? 30_000
  /** Nonce → its payment's digest, once asked for: the one payment of that challenge. */
  const payments = new Map<string, Promise<string>>()

  const payOnce = (offer: SuiDelegateOffer, vouched: Vouched) =>
    Effect.runPromise(
      vouchOnChain({ client, pkg, grant: vouched.grant, offer, amount: vouched.amount }).pipe(
        Effect.andThen(payOffer({ pkg, signer, client, grant: vouched.grant, offer, amount: vouched.amount })),
        Effect.mapError((refused) => new Error(`sui-delegate: ${refused.reason}`))
      )
    )

  const pay = async (offer: SuiDelegateOffer): Promise<SuiPaymentPayload> => {
    const request = requestBeingPaid()
    if (request === undefined) throw new Error(`sui-delegate: not paid: ${UNKNOWN_REQUEST}`)
    // Checked on every call, even for a nonce already paid: its credential must not go to another request either.
    const vouching = vouchedOffer(manifest, offer, Date.now(), request)
    if (vouching._tag === "Refused") throw new Error(`sui-delegate: not paid: ${vouching.reason}`)
    const { nonce } = offer.extra
    const known = payments.get(nonce)
    const payment = known ?? payOnce(offer, vouching)
    if (known === undefined) {
      payments.set(nonce, payment)
      // Nothing was paid: the challenge may be tried again.
      payment.catch(() => payments.delete(nonce))
    }
    const digest = await payment
    await untilCheckpointed(client, digest, finalityTimeoutMs)
    const message = challengeProofMessage({ nonce, digest, method: offer.extra.method, url: offer.extra.resourceUrl })
    if (message === undefined) throw new Error("sui-delegate: the challenge cannot be bound to a payment proof")
    const { signature } = await signer.signPersonalMessage(message)
    return { digest, proof: signature, binding: "challenge" }
  }

  return { pay, address: signer.toSuiAddress() }
}
export type SuiPayer = ReturnType<typeof makeSuiPayer>
