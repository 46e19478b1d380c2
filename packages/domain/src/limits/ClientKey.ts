import { Result } from "effect"
import { IpNetwork, NetAddress } from "effect/net"

/** An IPv4 address written as IPv6 (`::ffff:a.b.c.d`), as a dual-stack socket reports IPv4 peers. */
const MAPPED_IPV4 = /^::ffff:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i

/**
 * Who a per-client limit counts: an IPv4 address as it is, an IPv6 address by its /64. Anyone with
 * an IPv6 network (any cloud machine) holds 2^64 addresses of one /64, so counting whole IPv6
 * addresses would give one client 2^64 budgets. Anything that is not an IP address counts as itself.
 */
export const clientKey = (address: string | undefined): string => {
  if (address === undefined) return "unknown"
  const text = MAPPED_IPV4.exec(address)?.[1] ?? address
  const ip = NetAddress.ipFromString(text)
  if (Result.isFailure(ip) || NetAddress.width(ip.success) === 32) return text
  const network = IpNetwork.fromAddress(ip.success, 64)
  return Result.isSuccess(network) ? String(network.success) : text
}
