import type { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import { vouchedOffer, type Vouching } from "@gateway/domain/payment/OfferVouching"
import type { SessionOffer } from "@gateway/domain/payment/SessionOffer"

/** A challenge-free offer is vouched as if its challenge had this long left: longer than any rule asks for. */
const NO_CHALLENGE_EXPIRY_MS = 3_600_000

/**
 * Whether the manifest vouches for paying this `sui-session` offer: the same rules as an `exact` or
 * `sui-delegate` offer (the gateway's origin and service path, package, network, asset, the grant's per-payment
 * cap and expiry, the owner's policy, and the request's URL and method when known). A session offer carries no
 * challenge expiry (a voucher is bound to its session's growing total, not to a challenge), so that one rule
 * does not apply; `amount` is the price of one call, which is what the per-payment cap bounds.
 */
export const vouchedSessionOffer = (
  manifest: ConnectionManifest,
  offer: SessionOffer,
  nowMs: number,
  request?: { readonly url: URL; readonly method: string }
): Vouching =>
  vouchedOffer(manifest, { ...offer, extra: { ...offer.extra, expiresAt: new Date(nowMs + NO_CHALLENGE_EXPIRY_MS).toISOString() } }, nowMs, request)
