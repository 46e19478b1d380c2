import { Schema } from "effect"
import { PositiveAtomicAmount } from "../Amount.ts"
import { type CatalogEntry, HttpMethodName } from "../CatalogEntry.ts"
import type { SpendAccountPackage } from "../chain/SpendAccountModule.ts"
import { CoinType } from "../CoinType.ts"
import { SuiAddress } from "../SuiAddress.ts"

/**
 * The x402 (version 2) offer of this gateway: our own scheme, `sui-delegate`,
 * in x402's "client-submitted payment proof" family. The payer moves the
 * money itself, before presenting anything (`paymentFlow: "upfront"`), by
 * calling `<publishedAt>::spend_account::pay<T>` through its grant
 * (`assetTransferMethod`); the credential then carries the transaction's
 * digest and the payer's proof of possession (see ../PaymentProof.ts).
 */
export const SUI_DELEGATE_SCHEME = "sui-delegate"
export const ASSET_TRANSFER_METHOD = "spend_account::pay"

/** A challenge nonce: sealed by the gateway, carried unescaped in a memo, a header and a URL. */
export const ChallengeNonce = Schema.String.pipe(
  Schema.check(Schema.isMinLength(1), Schema.isMaxLength(300), Schema.isPattern(/^[A-Za-z0-9._~-]+$/u, { expected: "a challenge nonce" }))
)

/** A Sui transaction digest: base58 of 32 bytes. */
export const TransactionDigest = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/u, { expected: "a base58 transaction digest" }))
)

/** A package id as a `SpendAccountPackage` holds it (unbranded: the chain configuration names it). */
export const PackageId = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^0x[0-9a-f]{64}$/u, { expected: "a package id: 0x and 64 lowercase hex digits" }))
)

/** x402 names networks `<chain>:<network>`; ours are always on Sui. */
export const SuiNetwork = Schema.TemplateLiteral(["sui:", Schema.String])
export type SuiNetwork = typeof SuiNetwork.Type

/** The terms of one challenge that both dialects carry: the x402 offer's `extra`, MPP's `methodDetails`. */
export const challengeTermFields = {
  assetTransferMethod: Schema.Literal(ASSET_TRANSFER_METHOD),
  /** The `memo` of the `pay` call, as UTF-8 bytes; each payment of the challenge is served once. */
  nonce: ChallengeNonce,
  serviceId: Schema.String,
  /** The service's declared HTTP method: the only one challenged, accepted and forwarded. */
  method: HttpMethodName,
  /** The seller's path, as the owner's policy names it. */
  path: Schema.String,
  /** The paid-call address the challenge is for (x402's `resource.url`), so a scheme client sees it. */
  resourceUrl: Schema.String,
  /** The package's original id: its types and events are named under it. */
  packageId: PackageId,
  /** The id `pay` is called at: the package version in use. */
  publishedAt: PackageId
}

/** The challenge's terms, beside the amount, asset and recipient every x402 offer has. */
export const SuiDelegateExtra = Schema.Struct({
  paymentFlow: Schema.Literal("upfront"),
  ...challengeTermFields,
  /** ISO 8601; a payment the chain accepted later than this does not pay the challenge. */
  expiresAt: Schema.String
})
export type SuiDelegateExtra = typeof SuiDelegateExtra.Type

/** One x402 `PaymentRequirements` of scheme `sui-delegate`. */
export const SuiDelegateOffer = Schema.Struct({
  scheme: Schema.Literal(SUI_DELEGATE_SCHEME),
  network: SuiNetwork,
  amount: PositiveAtomicAmount,
  asset: CoinType,
  payTo: SuiAddress,
  maxTimeoutSeconds: Schema.Number,
  extra: SuiDelegateExtra
})
export type SuiDelegateOffer = typeof SuiDelegateOffer.Type

/** What one challenge asks for: the service's terms under the revision it was minted for, and a fresh nonce. */
export interface ChallengeTerms {
  readonly nonce: string
  readonly seconds: number
  readonly expiresAt: Date
  readonly entry: CatalogEntry
  readonly pkg: SpendAccountPackage
}

/** A catalog network name as x402 writes it; entries are always `sui:<network>`. */
export const suiNetwork = (network: string): SuiNetwork => network.startsWith("sui:") ? `sui:${network.slice(4)}` : `sui:${network}`

export const suiDelegateOffer = (t: ChallengeTerms): SuiDelegateOffer => ({
  scheme: SUI_DELEGATE_SCHEME,
  network: suiNetwork(t.entry.network),
  amount: t.entry.price,
  asset: t.entry.asset,
  payTo: t.entry.payTo,
  maxTimeoutSeconds: t.seconds,
  extra: {
    paymentFlow: "upfront",
    assetTransferMethod: ASSET_TRANSFER_METHOD,
    nonce: t.nonce,
    serviceId: t.entry.id,
    method: t.entry.method,
    path: t.entry.path,
    resourceUrl: t.entry.resourceUrl,
    packageId: t.pkg.originalId,
    publishedAt: t.pkg.publishedAt,
    expiresAt: t.expiresAt.toISOString()
  }
})

/** The `sui-delegate` offer among a 402's `accepts`, decoded, or undefined when there is none. */
export const findSuiDelegateOffer = (accepts: ReadonlyArray<unknown>): SuiDelegateOffer | undefined => {
  for (const candidate of accepts) {
    const decoded = decodeOffer(candidate)
    if (decoded._tag === "Some") return decoded.value
  }
  return undefined
}

const decodeOffer = Schema.decodeUnknownOption(SuiDelegateOffer)

/** Whether these x402 requirements are a well-formed `sui-delegate` offer. */
export const isSuiDelegateOffer = Schema.is(SuiDelegateOffer)
