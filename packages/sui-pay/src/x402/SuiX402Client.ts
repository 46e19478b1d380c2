import { type SpendControlAsset, x402Client, x402HTTPClient } from "@x402/core/client"
import type { PaymentRequirements } from "@x402/core/types"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import type { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import { SESSION_SCHEME } from "@gateway/domain/payment/SessionOffer"
import { suiNetwork } from "@gateway/domain/payment/SuiDelegateOffer"
import type { SessionPayer } from "../SessionPayer.ts"
import { makeSignFirstPayer, type SignFirstPayer } from "../SignFirstPayer.ts"
import { makeSuiPayer, type SuiPayer, type SuiPayerOptions } from "../SuiPayer.ts"
import { exactSuiScheme } from "./ExactSuiScheme.ts"
import { sessionPaymentRequiredHook, suiSessionScheme } from "./SuiSessionScheme.ts"
import { suiDelegateScheme } from "./SuiDelegateScheme.ts"

/**
 * The manifest's grants as x402 spend controls: each grant's asset is allowed (Sui coin types are not among
 * x402's default USD assets), under both spellings of the type. Uncapped here: the grant's per-payment cap is
 * checked by the schemes themselves (`vouchedOffer`), whose refusal names the grant's limit and who can raise it;
 * x402's own cap would refuse first, blaming spend controls the developer never set.
 */
export const grantSpendControls = (manifest: ConnectionManifest): Array<SpendControlAsset> =>
  manifest.grants.flatMap((grant) =>
    [...new Set([grant.coinType, normalizeCoinType(grant.coinType)])].map((asset) => ({ network: suiNetwork(manifest.network), asset }))
  )

/**
 * Prefers the offers a grant can pay (its asset, within its per-payment cap), as x402's caps did. When none can,
 * all are kept: the scheme then refuses the one selected with the grant's limit (an empty list would throw x402's
 * "filtered out by policies", which says nothing of the grant).
 */
export const preferPayableByGrants = (manifest: ConnectionManifest) => (_version: number, requirements: Array<PaymentRequirements>) => {
  const payable = requirements.filter((r) => {
    const grant = manifest.grants.find((g) => normalizeCoinType(g.coinType) === normalizeCoinType(r.asset))
    return grant !== undefined && /^\d+$/.test(r.amount) && BigInt(r.amount) <= BigInt(grant.maxPerPayment)
  })
  return payable.length > 0 ? payable : requirements
}

/** With sessions opted in, a 402 that offers one is paid from a session rather than by a payment per call. */
const preferSessions = (_version: number, requirements: Array<PaymentRequirements>) => {
  const sessions = requirements.filter((r) => r.scheme === SESSION_SCHEME)
  return sessions.length > 0 ? sessions : requirements
}

export type SuiX402ClientOptions = SuiPayerOptions & {
  readonly signFirstPayer?: SignFirstPayer
  readonly upfrontPayer?: SuiPayer
  /** Opts in to payment sessions (`sui-session`), paid by this payer; keep it to `closeSessions()` when done. */
  readonly sessions?: SessionPayer
}

/**
 * An `x402Client` that pays this gateway from the agent's grant: scheme `exact` (sign-first, gas from the
 * gateway's station, nothing charged unless the seller answers) registered first, as the gateway offers it
 * first, and `sui-delegate` (upfront) as the fallback for a gateway that offers only that; with `sessions`,
 * `sui-session` after them, preferred whenever a 402 offers it. Spend controls allow the grants' assets; an offer
 * above the grant's per-payment cap is refused by the scheme, naming that cap. Call it through
 * `paidFetch(wrapFetchWithPayment(fetch, client))`; for sessions, pass
 * `suiX402HttpClient` instead (see `suiSessionScheme` for why).
 */
export const suiX402Client = (options: SuiX402ClientOptions) => {
  const client = new x402Client()
    .register("sui:*", exactSuiScheme({ payer: options.signFirstPayer ?? makeSignFirstPayer(options) }))
    .register("sui:*", suiDelegateScheme({ payer: options.upfrontPayer ?? makeSuiPayer(options) }))
    .setSpendControls({ allowedAssets: grantSpendControls(options.manifest) })
    .registerPolicy(preferPayableByGrants(options.manifest))
  return options.sessions === undefined
    ? client
    : client.register("sui:*", suiSessionScheme({ payer: options.sessions })).registerPolicy(preferSessions)
}

/**
 * `suiX402Client` wrapped as the `x402HTTPClient` `@x402/fetch` takes, with sessions (when opted in) paid from
 * its `onPaymentRequired` hook, before the selection that would drop the gateway's session offer. Call it through
 * `paidFetch(wrapFetchWithPayment(fetch, suiX402HttpClient(…)))`.
 */
export const suiX402HttpClient = (options: SuiX402ClientOptions) => {
  const http = new x402HTTPClient(suiX402Client(options))
  return options.sessions === undefined ? http : http.onPaymentRequired(sessionPaymentRequiredHook({ payer: options.sessions }))
}
