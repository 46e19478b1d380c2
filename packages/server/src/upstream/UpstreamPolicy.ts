import { lookup } from "node:dns/promises"
import { BlockList, isIP } from "node:net"
import { Effect } from "effect"

/**
 * Where a seller's upstream may point. A paid call sends the seller's
 * credential and the payer's body to the upstream and returns its answer, so
 * an upstream on loopback, link-local (cloud metadata), private, CGNAT,
 * unique-local, multicast or reserved addresses would let a seller read the
 * gateway's own network. Such addresses are refused unless the operator names
 * the exact `host:port` in `UPSTREAM_ALLOW_HOSTS` (local development and tests).
 * The check runs at registration (`checkUpstreamUrl`) and again on every
 * connect, on the address actually dialled (`isForbiddenAddress`, see
 * UpstreamForwarder), so DNS rebinding does not pass.
 */
export type UpstreamVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string }

/** IPv4 ranges no upstream may be in: [network, prefix]. */
const FORBIDDEN_V4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4] // reserved, and 255.255.255.255 broadcast
]

/** IPv6 ranges no upstream may be in. */
const FORBIDDEN_V6: ReadonlyArray<readonly [string, number]> = [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215): translates into the operator's own network
  ["100::", 64], // discard
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, still routed by some stacks)
  ["ff00::", 8] // multicast
]

/**
 * IPv6 forms that embed an IPv4 address, as the prefix the IPv4 address
 * follows: IPv4-mapped, IPv4-compatible and well-known NAT64 (RFC 6052) carry it
 * in the last 32 bits. Each forbidden IPv4 range is forbidden under each.
 */
const EMBEDDING_V6: ReadonlyArray<string> = ["::ffff:", "::", "64:ff9b::"]

const forbidden = (() => {
  const list = new BlockList()
  for (const [network, prefix] of FORBIDDEN_V4) {
    list.addSubnet(network, prefix, "ipv4")
    for (const embedding of EMBEDDING_V6) list.addSubnet(`${embedding}${network}`, 96 + prefix, "ipv6")
    // 6to4 (2002::/16) carries the IPv4 address in bits 16..47.
    const [a = 0, b = 0, c = 0, d = 0] = network.split(".").map(Number)
    const hex = (x: number, y: number) => ((x << 8) | y).toString(16)
    list.addSubnet(`2002:${hex(a, b)}:${hex(c, d)}::`, 16 + prefix, "ipv6")
  }
  for (const [network, prefix] of FORBIDDEN_V6) list.addSubnet(network, prefix, "ipv6")
  return list
})()

/** Whether an IP address (v4 or v6 literal, brackets allowed) is one no upstream may connect to. Not an IP: true. */
export const isForbiddenAddress = (ip: string): boolean => {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip
  // A zone id (fe80::1%eth0) names an interface, which only link-local addresses have.
  if (bare.includes("%")) return true
  const family = isIP(bare)
  if (family === 0) return true
  return forbidden.check(bare, family === 4 ? "ipv4" : "ipv6")
}

const refuse = (reason: string): UpstreamVerdict => ({ ok: false, reason })
const OK: UpstreamVerdict = { ok: true }

/** The `host:port` an allow-list entry names for a URL (IPv6 hosts bracketed, the scheme's default port filled in). */
export const hostPortOf = (url: URL): string => `${url.hostname}:${url.port === "" ? (url.protocol === "https:" ? "443" : "80") : url.port}`

/** A parsed http(s) URL without userinfo, or the reason it is not one. */
export const parseUpstreamUrl = (url: string): URL | UpstreamVerdict => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return refuse("upstream_url_not_a_url")
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return refuse("upstream_url_must_be_http_or_https")
  if (parsed.username !== "" || parsed.password !== "") return refuse("upstream_url_must_not_carry_userinfo")
  if (parsed.hostname === "") return refuse("upstream_url_has_no_host")
  return parsed
}

/** Whether an upstream `host:port` is named in the operator's allow-list. */
export const isAllowedHost = (url: URL, allowHosts: ReadonlyArray<string>): boolean =>
  allowHosts.map((h) => h.toLowerCase()).includes(hostPortOf(url))

export const FORBIDDEN_ADDRESS_REASON = "upstream_address_is_loopback_private_or_reserved"

/** Every address a host name resolves to; an IP literal is its own. */
const addressesOf = (hostname: string): Effect.Effect<ReadonlyArray<string>> => {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname
  if (isIP(bare) !== 0) return Effect.succeed([bare])
  return Effect.tryPromise(() => lookup(bare, { all: true, verbatim: true })).pipe(
    Effect.map((all) => all.map((a) => a.address)),
    Effect.orElseSucceed((): ReadonlyArray<string> => [])
  )
}

/**
 * Whether a seller may register `url` as an upstream: http or https, no
 * userinfo, and every address its host is or resolves to outside the forbidden
 * ranges, unless `host:port` is allow-listed. A name that resolves to nothing
 * is refused (it would be refused at connect time too).
 */
export const checkUpstreamUrl = (url: string, allowHosts: ReadonlyArray<string>): Effect.Effect<UpstreamVerdict> =>
  Effect.gen(function*() {
    const parsed = parseUpstreamUrl(url)
    if (!(parsed instanceof URL)) return parsed
    if (isAllowedHost(parsed, allowHosts)) return OK
    const addresses = yield* addressesOf(parsed.hostname)
    if (addresses.length === 0) return refuse("upstream_host_does_not_resolve")
    return addresses.some(isForbiddenAddress) ? refuse(FORBIDDEN_ADDRESS_REASON) : OK
  })
