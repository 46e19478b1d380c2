import { lookup as dnsLookup } from "node:dns"
import { isIP, type LookupFunction } from "node:net"
import { NodeHttpClient } from "@effect/platform-node"
import { Context, Duration, Effect, Layer, Option, Stream } from "effect"
import { Headers, HttpBody, HttpClient, HttpClientRequest, type HttpClientResponse, UrlParams } from "effect/http"
import { hostPortOf, isAllowedHost, isForbiddenAddress, parseUpstreamUrl } from "./UpstreamPolicy.ts"

/**
 * One paid call's request to the seller, made on effect's HttpClient so that
 * it cannot be turned against the gateway's network or the payer:
 * - the address actually dialled is checked at connect time (the agents'
 *   `lookup`), so a name that resolved to a public address at registration
 *   and to loopback now (DNS rebinding) is refused; an IP literal is checked
 *   before dialling;
 * - redirects are never followed (HttpClient follows none unless asked): a
 *   3xx is the seller's answer, returned as it came but without its `Location`;
 * - the gateway's own origin is refused even when allow-listed;
 * - the answer is read as a stream and abandoned past `maxBodyBytes`, so a
 *   seller cannot fill the gateway's memory;
 * - the whole call, answer included, is bounded by `timeoutMs`.
 */
export interface UpstreamCall {
  /** The seller's upstream URL with the caller's query string. */
  readonly url: string
  readonly method: string
  readonly headers: Readonly<Record<string, string>>
  /** Undefined for GET and HEAD. */
  readonly body: Uint8Array | undefined
}

export interface ForwardLimits {
  readonly allowHosts: ReadonlyArray<string>
  /** The gateway's own `host:port`s: never an upstream. */
  readonly ownHosts: ReadonlyArray<string>
  readonly maxBodyBytes: number
  readonly timeoutMs: number
}

export type UpstreamAnswer =
  | { readonly _tag: "Answered"; readonly status: number; readonly contentType: string | null; readonly body: Uint8Array }
  /** The target is not one the gateway may reach: the seller's misconfiguration, never sent. */
  | { readonly _tag: "Forbidden"; readonly reason: string }
  /** The seller's answer passed the cap. */
  | { readonly _tag: "TooLarge" }
  /** Unreachable, reset or too slow. */
  | { readonly _tag: "Failed" }

const FORBIDDEN_CODE = "E_UPSTREAM_FORBIDDEN_ADDRESS"
const FORBIDDEN_ADDRESS: UpstreamAnswer = { _tag: "Forbidden", reason: "upstream_address_is_loopback_private_or_reserved" }
const TOO_LARGE: UpstreamAnswer = { _tag: "TooLarge" }
const FAILED: UpstreamAnswer = { _tag: "Failed" }

/** dns.lookup, refusing a name any of whose addresses is forbidden (one bad answer is enough to be a rebinding attempt). */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null) return callback(error, "")
    const first = addresses[0]
    if (first === undefined || addresses.some((a) => isForbiddenAddress(a.address))) {
      return callback(Object.assign(new Error(`${hostname} resolves to a forbidden address`), { code: FORBIDDEN_CODE }), "")
    }
    return options.all === true ? callback(null, addresses) : callback(null, first.address, first.family)
  })
}

/**
 * Connections to sellers, kept alive between calls as Node's global agent
 * keeps them, and closed when the scope that made them ends: with `lookup`,
 * every new connection dials only a checked address.
 */
const clientOn = (lookup: LookupFunction | undefined) =>
  Effect.flatMap(
    NodeHttpClient.makeAgent({ keepAlive: true, ...(lookup === undefined ? {} : { lookup }) }),
    (agent) => Effect.provideService(NodeHttpClient.makeNodeHttp, NodeHttpClient.HttpAgent, agent)
  )

/** Where the call may go, or why not, before any socket is opened. */
const targetOf = (call: UpstreamCall, limits: ForwardLimits): URL | { readonly reason: string } => {
  const url = parseUpstreamUrl(call.url)
  if (!(url instanceof URL)) return { reason: url.ok ? "upstream_url_invalid" : url.reason }
  if (limits.ownHosts.map((h) => h.toLowerCase()).includes(hostPortOf(url))) return { reason: "upstream_is_the_gateway_itself" }
  return url
}

/** The answer's bytes, or TooLarge as soon as they pass the cap (declared or counted). */
const readCapped = (response: HttpClientResponse.HttpClientResponse, maxBodyBytes: number) => {
  if (Number(response.headers["content-length"] ?? "0") > maxBodyBytes) return Effect.succeed(TOO_LARGE)
  const chunks: Array<Uint8Array> = []
  let size = 0
  return Stream.runForEach(response.stream, (chunk) => {
    size += chunk.byteLength
    if (size > maxBodyBytes) return Effect.fail(TOO_LARGE)
    chunks.push(chunk)
    return Effect.void
  }).pipe(
    Effect.map((): UpstreamAnswer => ({
      _tag: "Answered",
      status: response.status,
      contentType: response.headers["content-type"] ?? null,
      // A Buffer is a Uint8Array: one copy of the answer, not two.
      body: Buffer.concat(chunks, size)
    })),
    Effect.catch((failure) => Effect.succeed(failure === TOO_LARGE ? TOO_LARGE : FAILED))
  )
}

const isForbiddenDial = (cause: unknown) =>
  typeof cause === "object" && cause !== null && "code" in cause && cause.code === FORBIDDEN_CODE

/** Makes the call once, on one of the two clients; never fails (every outcome is an `UpstreamAnswer`). */
const callOn = (
  clients: { readonly guarded: HttpClient.HttpClient; readonly allowListed: HttpClient.HttpClient },
  call: UpstreamCall,
  limits: ForwardLimits
): Effect.Effect<UpstreamAnswer> => {
  const target = targetOf(call, limits)
  if (!(target instanceof URL)) return Effect.succeed({ _tag: "Forbidden", reason: target.reason })
  const allowed = isAllowedHost(target, limits.allowHosts)
  const literal = target.hostname.replace(/^\[|\]$/g, "")
  if (!allowed && isIP(literal) !== 0 && isForbiddenAddress(literal)) return Effect.succeed(FORBIDDEN_ADDRESS)
  const request = HttpClientRequest.makeWith(
    call.method,
    target.href,
    UrlParams.empty,
    Option.none(),
    Headers.fromInput(call.headers),
    call.body === undefined ? HttpBody.empty : HttpBody.uint8Array(call.body)
  )
  // An allow-listed host:port is the operator's own choice; every other name is checked on the address dialled.
  return (allowed ? clients.allowListed : clients.guarded).execute(request).pipe(
    // Only the upstream.forward span, whose attributes hold no URL path, query or header; no trace context is sent to sellers.
    Effect.provideService(HttpClient.TracerDisabledWhen, () => true),
    Effect.flatMap((response) => readCapped(response, limits.maxBodyBytes)),
    Effect.catch((error) => Effect.succeed(error.reason._tag === "TransportError" && isForbiddenDial(error.reason.cause) ? FORBIDDEN_ADDRESS : FAILED)),
    Effect.timeoutOrElse({ duration: Duration.millis(limits.timeoutMs), orElse: () => Effect.succeed(FAILED) }),
    Effect.tap((answer) =>
      Effect.annotateCurrentSpan({
        "upstream.outcome": answer._tag,
        ...(answer._tag === "Answered" ? { "http.response.status_code": answer.status, "http.response.body.size": answer.body.byteLength } : {})
      })
    ),
    Effect.withSpan("upstream.forward", {
      attributes: {
        "http.request.method": call.method,
        "server.address": target.hostname,
        "server.port": target.port === "" ? (target.protocol === "https:" ? 443 : 80) : Number(target.port),
        "upstream.allow_listed": allowed
      }
    })
  )
}

/**
 * The gateway's calls to sellers: its layer holds two clients, one whose
 * every new connection dials only a checked address, and one for the hosts
 * the operator allow-listed, and closes their connections when it ends.
 */
export class UpstreamForwarder extends Context.Service<UpstreamForwarder, {
  /** Makes the call once; never fails (every outcome is an `UpstreamAnswer`). */
  call(call: UpstreamCall, limits: ForwardLimits): Effect.Effect<UpstreamAnswer>
}>()("@gateway/server/UpstreamForwarder") {
  static readonly layer = Layer.effect(
    UpstreamForwarder,
    Effect.gen(function*() {
      const clients = { guarded: yield* clientOn(guardedLookup), allowListed: yield* clientOn(undefined) }
      return UpstreamForwarder.of({ call: (call, limits) => callOn(clients, call, limits) })
    })
  )
}

/**
 * Caller headers the seller never sees: hop-by-hop ones (RFC 9110 §7.6.1, and
 * any the caller's `Connection` names), ones the gateway sets itself, the
 * caller's cookies and the payment credential. `Expect` and `Upgrade` would
 * also make the forward fail.
 */
const DROPPED = new Set([
  "connection",
  "keep-alive",
  "te",
  "trailer",
  "upgrade",
  "cookie",
  "host",
  "content-length",
  "transfer-encoding",
  "expect",
  "authorization",
  "payment-signature",
  "idempotency-key",
  "http2-settings"
])

/**
 * Who the caller is and where it came from, as CDNs and proxies state it
 * (Cloudflare, Akamai, Fastly, CloudFront, Azure, App Engine, Envoy, nginx…),
 * and the method and path overrides some frameworks obey. From the caller
 * these are its own claims: a seller trusting one would log, rate-limit,
 * geolocate or route by them, or run another method than the one paid for.
 * The gateway's `X-Forwarded-For` is the only word on the caller's address.
 */
const CLAIMED = new Set([
  "forwarded",
  "via",
  "x-real-ip",
  "true-client-ip",
  "client-ip",
  "x-client-ip",
  "x-cluster-client-ip",
  "fastly-client-ip",
  "x-original-forwarded-for",
  "x-originating-ip",
  "x-remote-ip",
  "x-remote-addr",
  "x-proxyuser-ip",
  "x-azure-clientip",
  "x-azure-socketip",
  "x-appengine-user-ip",
  "cloudfront-viewer-address",
  "x-original-host",
  "x-host",
  "x-http-method-override",
  "x-http-method",
  "x-method-override",
  "x-original-url",
  "x-original-uri",
  "x-original-method",
  "x-rewrite-url",
  "x-forwarded",
  "front-end-https",
  "x-url-scheme",
  "ssl-client-cert",
  "x-client-cert"
])

/**
 * Whole families a proxy sets about the caller: `X-Forwarded-*`, `Proxy-*`, Cloudflare's `CF-*`, Fastly's
 * `Fastly-*`, Envoy's `X-Envoy-*`, and the TLS client-certificate headers of nginx and others (`X-SSL-*`,
 * `X-Client-Cert-*`), which a seller could take for a verified client identity.
 */
const CLAIMED_PREFIXES = ["x-forwarded-", "proxy-", "cf-", "fastly-", "x-envoy-", "x-ssl-", "x-client-cert-"]

const dropped = (name: string, named: ReadonlySet<string>) =>
  DROPPED.has(name) || CLAIMED.has(name) || named.has(name) || CLAIMED_PREFIXES.some((prefix) => name.startsWith(prefix))

/**
 * The headers the seller gets: the caller's, less the dropped ones; the
 * seller's own credential; who called and how (`X-Forwarded-For`,
 * `X-Forwarded-Proto`, set here, never taken from the caller); and
 * `Idempotency-Key: <payment digest>`, so a retried forward of one payment is
 * recognisable.
 */
export const upstreamHeaders = (input: {
  readonly caller: Readonly<Record<string, string | undefined>>
  readonly secret: string | undefined
  readonly clientAddress: string | undefined
  readonly proto: string
  readonly digest: string
}): Record<string, string> => {
  const named = new Set((input.caller["connection"] ?? "").split(",").map((s) => s.trim().toLowerCase()).filter((s) => s.length > 0))
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(input.caller)) {
    const lower = name.toLowerCase()
    if (value !== undefined && !dropped(lower, named)) headers[lower] = value
  }
  if (input.secret !== undefined) headers["authorization"] = `Bearer ${input.secret}`
  if (input.clientAddress !== undefined) headers["x-forwarded-for"] = input.clientAddress
  headers["x-forwarded-proto"] = input.proto
  headers["idempotency-key"] = input.digest
  return headers
}
