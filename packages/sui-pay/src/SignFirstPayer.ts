import { Effect } from "effect"
import { packageOf, vouchOnChain } from "@gateway/client/AgentSdk"
import { makeSignedPayments, type SignedPayment } from "@gateway/client/SignedPayments"
import { signFirstPayment } from "@gateway/client/SignFirstPayment"
import type { ExactOffer } from "@gateway/domain/payment/ExactOffer"
import { vouchedOffer } from "@gateway/domain/payment/OfferVouching"
import type { SignedPaymentPayload } from "@gateway/domain/payment/PaymentCredential"
import { requestBeingPaid, UNKNOWN_REQUEST } from "./PaidRequest.ts"
import type { SuiPayerOptions } from "./SuiPayer.ts"

/**
 * Signs `exact` (sign-first) payments for clients that see only the challenge
 * (an x402 `SchemeNetworkClient`, an mppx client method), with the same checks
 * as the upfront payer: the request being paid for (`paidFetch` / `payingFor`)
 * is a call to the gateway's service the offer names, the manifest vouches for
 * the offer (package, network, asset, per-payment cap, expiries, policy), and
 * the grant on chain would take it (recipients, window). Outside `payingFor`
 * nothing is signed.
 *
 * Nothing is executed here: the agent signs one `spend_account::pay` through
 * its grant, with the offer's gas station paying the gas (the agent needs no
 * SUI, and signs only once the station's answer is checked to be exactly its
 * payment), and the gateway executes it once the seller has answered. Each
 * challenge (nonce) gets ONE signed payment, however often it is asked for:
 * a retry after a seller's failure re-presents the same bytes, so it can never
 * be charged twice. A payment is dropped when its challenge expires.
 */
export const makeSignFirstPayer = (options: SuiPayerOptions) => {
  const { signer, manifest, client } = options
  const pkg = packageOf(manifest)
  const gatewayOrigin = URL.parse(manifest.apiBaseUrl)?.origin ?? manifest.apiBaseUrl
  const payments = makeSignedPayments<Error>()

  const sign = async (offer: ExactOffer): Promise<SignedPaymentPayload> => {
    const request = requestBeingPaid()
    if (request === undefined) throw new Error(`exact: not paid: ${UNKNOWN_REQUEST}`)
    // Checked on every call, even for a nonce already signed: its payment must not go to another request either.
    const vouching = vouchedOffer(manifest, offer, Date.now(), request)
    if (vouching._tag === "Refused") throw new Error(`exact: not paid: ${vouching.reason}`)
    const { grant, amount } = vouching
    const signing = Effect.andThen(
      vouchOnChain({ client, pkg, grant, offer, amount }),
      signFirstPayment({ pkg, signer, client, grant, offer, amount, gatewayOrigin })
    ).pipe(Effect.mapError((refused) => new Error(`exact: not paid: ${refused.reason}`)))
    const payment = await Effect.runPromise(payments.once(offer.extra.nonce, Date.parse(offer.extra.expiresAt), signing))
    return { signature: payment.signature, transaction: payment.transaction }
  }

  /** The payment signed for a challenge, while it may still be presented. */
  const signed = (nonce: string): Promise<SignedPayment | undefined> => Effect.runPromise(payments.signed(nonce))

  return { sign, signed, address: signer.toSuiAddress() }
}
export type SignFirstPayer = ReturnType<typeof makeSignFirstPayer>
