import { Result } from "effect"
import { IpNetwork, NetAddress } from "effect/net"

/** An address as effect's `xForwardedHeaders` reads one: an IP, bracketed or not, or an IP with a port. */
const ipOf = (input: string | undefined): NetAddress.IpAddress | undefined => {
  if (input === undefined) return undefined
  const ip = NetAddress.ipFromString(input.startsWith("[") && input.endsWith("]") ? input.slice(1, -1) : input)
  if (Result.isSuccess(ip)) return NetAddress.toCanonical(ip.success)
  const inet = NetAddress.inetAddressFromString(input)
  return Result.isSuccess(inet) ? NetAddress.toCanonical(inet.success.address) : undefined
}

/**
 * The caller's address exactly as the app reads it (Server.ts, effect's `HttpMiddleware.xForwardedHeaders`), for
 * requests the Node server answers before the app sees them: the peer's own address unless the peer is one of
 * `trustedProxies`; from a trusted proxy, the first address of `X-Forwarded-For` from the right that is not a
 * trusted proxy (the leftmost when all are), and the peer's own again when an entry is not an address at all.
 * A test holds this to effect's middleware.
 */
export const clientAddress = (
  trustedProxies: ReadonlyArray<IpNetwork.IpNetwork>,
  peer: string | undefined,
  forwardedFor: string | undefined
): string | undefined => {
  if (trustedProxies.length === 0) return peer
  const trusted = (address: NetAddress.IpAddress) => trustedProxies.some((network) => IpNetwork.contains(network, address))
  const peerIp = ipOf(peer)
  if (peerIp === undefined || !trusted(peerIp) || forwardedFor === undefined) return peer
  const addresses = forwardedFor.split(",").map((entry) => entry.trim())
  for (let index = addresses.length - 1; index >= 0; index--) {
    const address = ipOf(addresses[index])
    if (address === undefined) return peer
    if (index > 0 && trusted(address)) continue
    return NetAddress.formatIp(address)
  }
  return peer
}
