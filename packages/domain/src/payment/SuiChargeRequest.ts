import { Schema } from "effect"
import { PositiveAtomicAmount } from "../Amount.ts"
import { CoinType } from "../CoinType.ts"
import { SuiAddress } from "../SuiAddress.ts"
import { ASSET_TRANSFER_METHOD, challengeTermFields, type SuiDelegateOffer, SuiNetwork } from "./SuiDelegateOffer.ts"

/**
 * The `request` of our MPP challenge (`method="sui"`, `intent="charge"`):
 * MPP's charge fields (amount, currency, recipient) and, in `methodDetails`,
 * everything Sui-specific, the same terms as the x402 offer's `extra`. It
 * travels as base64url of its JCS (RFC 8785) canonical JSON, which mppx makes.
 */
export const SuiMethodDetails = Schema.Struct({
  network: SuiNetwork,
  rail: Schema.Literal("delegate"),
  ...challengeTermFields
})

export const SuiChargeRequest = Schema.Struct({
  amount: PositiveAtomicAmount,
  /** The coin type paid in. */
  currency: CoinType,
  recipient: SuiAddress,
  methodDetails: SuiMethodDetails
})
export type SuiChargeRequest = typeof SuiChargeRequest.Type

export const suiChargeRequest = (offer: SuiDelegateOffer): SuiChargeRequest => ({
  amount: offer.amount,
  currency: offer.asset,
  recipient: offer.payTo,
  methodDetails: {
    network: offer.network,
    rail: "delegate",
    assetTransferMethod: ASSET_TRANSFER_METHOD,
    nonce: offer.extra.nonce,
    serviceId: offer.extra.serviceId,
    method: offer.extra.method,
    path: offer.extra.path,
    resourceUrl: offer.extra.resourceUrl,
    packageId: offer.extra.packageId,
    publishedAt: offer.extra.publishedAt
  }
})

/** The same terms as an x402 offer, so one payer serves both dialects; `expires` is the MPP challenge's. */
export const offerOfChargeRequest = (request: SuiChargeRequest, expires: string, maxTimeoutSeconds: number): SuiDelegateOffer => ({
  scheme: "sui-delegate",
  network: request.methodDetails.network,
  amount: request.amount,
  asset: request.currency,
  payTo: request.recipient,
  maxTimeoutSeconds,
  extra: {
    paymentFlow: "upfront",
    assetTransferMethod: ASSET_TRANSFER_METHOD,
    nonce: request.methodDetails.nonce,
    serviceId: request.methodDetails.serviceId,
    method: request.methodDetails.method,
    path: request.methodDetails.path,
    resourceUrl: request.methodDetails.resourceUrl,
    packageId: request.methodDetails.packageId,
    publishedAt: request.methodDetails.publishedAt,
    expiresAt: expires
  }
})

/** Strict: a request with fields we did not issue is not ours. */
export const decodeSuiChargeRequest = Schema.decodeUnknownOption(SuiChargeRequest, { onExcessProperty: "error" })
