import { normalizeSuiAddress } from "@mysten/sui/utils"
import { type GrantWindow, rollWindow, windowEndMs, windowRemaining } from "../chain/GrantWindow.ts"
import { normalizeCoinType } from "../chain/SpendAccountModule.ts"
import type { ConnectionManifest } from "../ConnectionManifest.ts"
import { policyAllows } from "../Policy.ts"
import type { SuiDelegateExtra, SuiDelegateOffer } from "./SuiDelegateOffer.ts"

export type ManifestGrant = ConnectionManifest["grants"][number]

/** The offer a payer may pay, with the grant that pays it; or why it may not. */
export type Vouching =
  | { readonly _tag: "Vouched"; readonly grant: ManifestGrant; readonly amount: bigint }
  | { readonly _tag: "Refused"; readonly reason: string }

/**
 * What vouching reads of an offer: the x402 fields and the challenge terms that a `sui-delegate` (upfront) offer
 * and an `exact` (sign-first) offer both carry in `extra`. Structural, so either offer is vouched for by the same
 * rules: how a payment is made does not change whom it may pay, how much, or for which call.
 */
export type VouchableOffer =
  & Pick<SuiDelegateOffer, "network" | "amount" | "asset" | "payTo">
  & { readonly extra: Pick<SuiDelegateExtra, "serviceId" | "method" | "path" | "resourceUrl" | "packageId" | "expiresAt"> }

/** A challenge must leave this long to pay and present it, or paying it would likely be wasted. */
export const MIN_TIME_LEFT_MS = 2_000

const refused = (reason: string): Vouching => ({ _tag: "Refused", reason })

/**
 * Whether the agent's connection manifest vouches for paying this offer: it
 * comes from (and names a resource at) the gateway the manifest names, for
 * the manifest's package and network, in an asset one of its grants holds,
 * within that grant's per-payment cap and expiry, with time left to pay, and
 * the owner's policy allows the call. `request` is the call being paid for,
 * when the payer sees it (the SDK does; an x402 scheme client does not): its
 * URL must be the offer's resource, its method the one the service is called with.
 */
export const vouchedOffer = (
  manifest: ConnectionManifest,
  offer: VouchableOffer,
  nowMs: number,
  request?: { readonly url: URL; readonly method: string }
): Vouching => {
  const { extra } = offer
  const gatewayOrigin = URL.parse(manifest.apiBaseUrl)?.origin
  const resource = URL.parse(extra.resourceUrl)
  // Only the gateway the manifest names is paid: a 402 from anywhere else, or naming a resource elsewhere, is not.
  if (gatewayOrigin === undefined || resource?.origin !== gatewayOrigin || (request !== undefined && request.url.origin !== gatewayOrigin)) {
    return refused(`origin: only challenges from ${manifest.apiBaseUrl} are paid`)
  }
  // The terms the policy is checked against must be those of the address being called, not whatever a 402 claims:
  // exactly the gateway's paid-call path for the service (another tenant of the origin cannot serve a look-alike).
  const servicePath = new URL(`v1/pay/${encodeURIComponent(extra.serviceId)}`, manifest.apiBaseUrl.replace(/\/?$/, "/")).pathname
  if (resource.pathname !== servicePath || (request !== undefined && request.url.pathname !== resource.pathname)) {
    return refused(`service: the challenge names ${extra.serviceId}, not the service at ${request?.url.pathname ?? resource.pathname}`)
  }
  if (extra.packageId !== manifest.packageId) return refused(`package: the challenge names ${extra.packageId}, not ${manifest.packageId}`)
  if (offer.network !== manifest.network) return refused(`network: ${offer.network} is not ${manifest.network}`)
  if (!(Date.parse(extra.expiresAt) - nowMs > MIN_TIME_LEFT_MS)) return refused("expiry: the challenge expires before it can be paid")
  if (request !== undefined && request.method !== extra.method && !(request.method === "HEAD" && extra.method === "GET")) {
    return refused(`method: the service is called with ${extra.method}, not ${request.method}`)
  }
  const grant = manifest.grants.find((g) => normalizeCoinType(g.coinType) === normalizeCoinType(offer.asset))
  if (grant === undefined) return refused(`asset: no grant for ${offer.asset}`)
  const expiry = BigInt(grant.expiry)
  if (expiry !== 0n && expiry <= BigInt(nowMs)) return refused(`expiry: the grant for ${offer.asset} has expired`)
  const amount = BigInt(offer.amount)
  // Named as the owner set it (the grant's maxPerPayment, in atomic units), with the fix: only the owner can raise it.
  if (amount > BigInt(grant.maxPerPayment)) {
    return refused(
      `amount: ${amount} exceeds the per-payment cap ${grant.maxPerPayment}: the service asks ${amount} atomic units of ${offer.asset}, above your grant's maxPerPayment ${grant.maxPerPayment}; ask the owner to raise it`
    )
  }
  const call = { serviceId: extra.serviceId, method: extra.method, path: extra.path, recipient: offer.payTo, asset: offer.asset }
  if (!policyAllows(manifest.policy, call, normalizeCoinType)) {
    return refused(`policy: ${extra.serviceId} ${extra.method} ${extra.path} paying ${offer.payTo} in ${offer.asset} is not allowed`)
  }
  return { _tag: "Vouched", grant, amount }
}

/** What the payer reads of its grant on chain before paying: what `pay` checks besides the caps the manifest holds. */
export interface GrantState {
  /** As the chain last wrote it; rolled to now here, as `pay` rolls it. */
  readonly window: GrantWindow
  /** Empty for any recipient. */
  readonly recipients: ReadonlyArray<string>
}

/**
 * Whether the grant as the chain holds it would take this payment: the
 * recipient is on its list (when it lists any), and the amount fits what its
 * window has left at `nowMs`. The chain would refuse either after the agent
 * paid gas for it; the window counts payments made anywhere, which the
 * manifest cannot know. The caps and expiry are `vouchedOffer`'s.
 */
export const vouchedByGrant = (
  state: GrantState,
  payment: { readonly amount: bigint; readonly recipient: string; readonly asset: string },
  nowMs: number
): { readonly _tag: "Vouched" } | { readonly _tag: "Refused"; readonly reason: string } => {
  const recipient = normalizeSuiAddress(payment.recipient)
  if (state.recipients.length > 0 && !state.recipients.some((r) => normalizeSuiAddress(r) === recipient)) {
    return { _tag: "Refused", reason: `recipient: ${payment.recipient} is not among the ${state.recipients.length} recipients the grant for ${payment.asset} may pay` }
  }
  const now = BigInt(nowMs)
  const left = windowRemaining(state.window, now)
  if (left !== undefined && payment.amount > left) {
    const resetsAt = new Date(Number(windowEndMs(rollWindow(state.window, now)))).toISOString()
    return {
      _tag: "Refused",
      reason: `window: ${payment.amount} exceeds the ${left} left of the grant's ${state.window.limit} per window for ${payment.asset}, until ${resetsAt}`
    }
  }
  return { _tag: "Vouched" }
}
