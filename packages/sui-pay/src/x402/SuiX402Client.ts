import { type SpendControlAsset, x402Client } from "@x402/core/client"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import type { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import { suiNetwork } from "@gateway/domain/payment/SuiDelegateOffer"
import { makeSignFirstPayer, type SignFirstPayer } from "../SignFirstPayer.ts"
import { makeSuiPayer, type SuiPayer, type SuiPayerOptions } from "../SuiPayer.ts"
import { exactSuiScheme } from "./ExactSuiScheme.ts"
import { suiDelegateScheme } from "./SuiDelegateScheme.ts"

/**
 * The manifest's grants as x402 spend controls: each grant's asset is allowed (Sui coin types are not among
 * x402's default USD assets), capped at the grant's own per-payment cap, under both spellings of the type.
 */
export const grantSpendControls = (manifest: ConnectionManifest): Array<SpendControlAsset> =>
  manifest.grants.flatMap((grant) =>
    [...new Set([grant.coinType, normalizeCoinType(grant.coinType)])].map((asset) => ({
      network: suiNetwork(manifest.network),
      asset,
      maxAmountPerPayment: grant.maxPerPayment
    }))
  )

/**
 * An `x402Client` that pays this gateway from the agent's grant: scheme `exact` (sign-first, gas from the
 * gateway's station, nothing charged unless the seller answers) registered first, as the gateway offers it
 * first, and `sui-delegate` (upfront) as the fallback for a gateway that offers only that. Spend controls allow
 * the grants' assets up to their per-payment caps. Call it through `paidFetch(wrapFetchWithPayment(fetch, client))`.
 */
export const suiX402Client = (
  options: SuiPayerOptions & { readonly signFirstPayer?: SignFirstPayer; readonly upfrontPayer?: SuiPayer }
) =>
  new x402Client()
    .register("sui:*", exactSuiScheme({ payer: options.signFirstPayer ?? makeSignFirstPayer(options) }))
    .register("sui:*", suiDelegateScheme({ payer: options.upfrontPayer ?? makeSuiPayer(options) }))
    .setSpendControls({ allowedAssets: grantSpendControls(options.manifest) })
