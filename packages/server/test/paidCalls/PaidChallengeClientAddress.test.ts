import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { Effect, Option, Result } from "effect"
import { Headers, HttpMiddleware, HttpServerRequest, HttpServerResponse } from "effect/http"
import { IpNetwork } from "effect/net"
import { clientAddress } from "../../src/http/ClientAddress.ts"

/** The client effect's middleware reads for this peer and X-Forwarded-For: the app's `remoteAddress` (Server.ts). */
const asTheAppReadsIt = (trustedProxies: ReadonlyArray<IpNetwork.IpNetwork>, peer: string | undefined, forwardedFor: string | undefined) => {
  const request = HttpServerRequest.fromWeb(new Request("http://gateway.test/v1/pay/x")).modify({
    remoteAddress: Option.fromNullishOr(peer),
    headers: Headers.fromInput(forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor })
  })
  let seen: Option.Option<string> = Option.none()
  const app = Effect.gen(function*() {
    seen = (yield* HttpServerRequest.HttpServerRequest).remoteAddress
    return HttpServerResponse.empty()
  })
  Effect.runSync(HttpMiddleware.xForwardedHeaders({ trustedProxies })(app).pipe(Effect.provideService(HttpServerRequest.HttpServerRequest, request)))
  return Option.getOrUndefined(seen)
}

const network = (cidr: string) => Result.getOrThrow(IpNetwork.fromString(cidr))
const NETWORKS = ["127.0.0.0/8", "10.0.0.0/8", "198.51.100.0/24", "2001:db8::/32", "::ffff:10.0.0.0/104", "203.0.113.7/32"].map(network)

/** Addresses from networks the trusted lists name, and any others; as sockets, proxies and clients write them. */
const ipv4 = fc.oneof(fc.constantFrom("127.0.0.1", "10.1.2.3", "198.51.100.4", "203.0.113.7", "203.0.113.8"), fc.ipV4())
const ipv6 = fc.oneof(fc.constantFrom("2001:db8::1", "2001:db8:7:7::2", "::1", "fe80::1"), fc.ipV6())
const port = fc.integer({ min: 0, max: 65535 })
const address = fc.oneof(
  ipv4,
  ipv6,
  ipv4.map((ip) => `::ffff:${ip}`),
  ipv6.map((ip) => `[${ip}]`),
  fc.tuple(ipv4, port).map(([ip, p]) => `${ip}:${p}`),
  fc.tuple(ipv6, port).map(([ip, p]) => `[${ip}]:${p}`),
  fc.constantFrom("unknown", "", "_hidden", "1.2.3", "[::1")
)
const forwardedFor = fc.option(
  fc.tuple(fc.array(address, { minLength: 1, maxLength: 4 }), fc.constantFrom(",", ", ", " , ")).map(([entries, separator]) => entries.join(separator)),
  { nil: undefined }
)

describe("the client address of a paid call the Node server answers", () => {
  it("is the one effect's X-Forwarded-For middleware gives the app, for any peer, header and trusted proxies", () => {
    fc.assert(
      fc.property(fc.subarray(NETWORKS), fc.option(address, { nil: undefined }), forwardedFor, (trusted, peer, header) => {
        assert.strictEqual(clientAddress(trusted, peer, header), asTheAppReadsIt(trusted, peer, header))
      }),
      { seed: 2402, numRuns: 3000 }
    )
  })

  it("takes the address the trusted proxy appended, not one the client put in front", () => {
    assert.strictEqual(clientAddress([network("127.0.0.0/8")], "127.0.0.1", "203.0.113.9, 198.51.100.1"), "198.51.100.1")
    assert.strictEqual(clientAddress([network("127.0.0.1/32")], "127.0.0.3", "198.51.100.1"), "127.0.0.3")
    assert.strictEqual(clientAddress([], "127.0.0.1", "198.51.100.1"), "127.0.0.1")
  })
})
