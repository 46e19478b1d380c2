import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { challengeOf, credential, pay, refs } from "../support/PayByHand.ts"
import { paidCallEnv } from "../support/Scenario.ts"
import { Upstream } from "../support/Upstream.ts"
import { paidService, rawRequest } from "../support/PaidEnv.ts"

/** What the caller sends beside its credential: hop-by-hop headers, identity it claims, and its own cookies. */
const HOSTILE = {
  "connection": "keep-alive, x-hop-secret",
  "keep-alive": "timeout=5",
  "te": "trailers",
  "x-hop-secret": "named by connection",
  "proxy-authorization": "Basic cHJveHk6c2VjcmV0",
  "cookie": "session=the-callers-cookie",
  "forwarded": "for=10.0.0.1;proto=https",
  "x-forwarded-for": "10.0.0.1",
  "x-forwarded-host": "internal.example",
  "x-forwarded-proto": "https",
  "x-real-ip": "10.0.0.2",
  "idempotency-key": "the-callers-own-key",
  "accept": "application/json",
  "x-request-tag": "kept"
}

/**
 * Client identity a CDN or proxy would set, claimed here by the caller itself
 * (and the overrides some frameworks take a method or path from): a seller
 * that trusts one would log, rate-limit, geolocate or route by the caller's word.
 */
const CLAIMED = {
  "true-client-ip": "10.0.0.3",
  "cf-connecting-ip": "10.0.0.4",
  "cf-connecting-ipv6": "fd00::4",
  "cf-ipcountry": "XX",
  "x-client-ip": "10.0.0.5",
  "client-ip": "10.0.0.6",
  "x-cluster-client-ip": "10.0.0.7",
  "fastly-client-ip": "10.0.0.8",
  "x-original-forwarded-for": "10.0.0.9",
  "x-originating-ip": "10.0.0.10",
  "x-remote-ip": "10.0.0.11",
  "x-remote-addr": "10.0.0.12",
  "x-proxyuser-ip": "10.0.0.13",
  "x-envoy-external-address": "10.0.0.14",
  "x-azure-clientip": "10.0.0.15",
  "x-azure-socketip": "10.0.0.16",
  "x-appengine-user-ip": "10.0.0.17",
  "cloudfront-viewer-address": "10.0.0.18:443",
  "via": "1.1 trusted-proxy",
  "x-original-host": "internal.example",
  "x-host": "internal.example",
  "x-http-method-override": "DELETE",
  "x-http-method": "DELETE",
  "x-method-override": "DELETE",
  "x-original-url": "/admin",
  "x-original-uri": "/admin",
  "x-original-method": "DELETE",
  "x-rewrite-url": "/admin",
  "x-forwarded": "for=10.0.0.19",
  "fastly-ssl": "1",
  "front-end-https": "on",
  "x-url-scheme": "https",
  "x-ssl-client-cert": "-----BEGIN CERTIFICATE-----",
  "x-ssl-client-verify": "SUCCESS",
  "ssl-client-cert": "-----BEGIN CERTIFICATE-----",
  "x-client-cert": "-----BEGIN CERTIFICATE-----"
}

/**
 * Threat: a caller smuggling hop-by-hop or identity headers to the seller
 * (spoofed client addresses, cookies, proxy credentials), or breaking a paid
 * call with `Expect` or `Upgrade`.
 */
describe("security: the seller sees only end-to-end headers, set by the gateway where they name the caller", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    const paidCall = (headers: (paid: string) => Record<string, string>) =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const { terms, nonce } = yield* challengeOf(entry.resourceUrl)
        const digest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
        const paid = yield* credential(entry.resourceUrl, terms, digest, { signer: agentKey })
        const calls = upstream.calls.length
        const answer = yield* rawRequest(entry.resourceUrl, { headers: headers(paid) })
        return { answer, digest, forwarded: upstream.calls.slice(calls) }
      })

    it.effect("hop-by-hop, identity and credential headers are dropped; X-Forwarded-* and Idempotency-Key are the gateway's", () =>
      Effect.gen(function*() {
        const { answer, digest, forwarded } = yield* paidCall((paid) => ({ ...HOSTILE, ...CLAIMED, "payment-signature": paid }))
        assert.strictEqual(answer.status, 200, answer.text)
        const [call] = forwarded
        assert.strictEqual(forwarded.length, 1)
        const seen = call?.headers ?? {}
        for (const name of ["keep-alive", "te", "trailer", "x-hop-secret", "proxy-authorization", "cookie", "forwarded", "x-forwarded-host", "x-real-ip", "payment-signature"]) {
          assert.isUndefined(seen[name], name)
        }
        assert.deepStrictEqual(Object.keys(CLAIMED).filter((name) => seen[name] !== undefined), [], "caller-claimed headers the seller saw")
        assert.notInclude(String(seen["connection"] ?? ""), "x-hop-secret")
        assert.strictEqual(seen["x-forwarded-for"], "127.0.0.1")
        assert.strictEqual(seen["x-forwarded-proto"], "http")
        assert.strictEqual(seen["idempotency-key"], digest)
        assert.strictEqual(seen["x-request-tag"], "kept")
        assert.strictEqual(seen["accept"], "application/json")
      }))

    it.effect("Expect: 100-continue does not break a paid call", () =>
      Effect.gen(function*() {
        const { answer, forwarded } = yield* paidCall((paid) => ({ "payment-signature": paid, "expect": "100-continue" }))
        assert.strictEqual(answer.status, 200, answer.text)
        assert.strictEqual(forwarded.length, 1)
        assert.isUndefined(forwarded[0]?.headers["expect"])
      }))

    it.effect("Upgrade does not break a paid call, and is not passed on", () =>
      Effect.gen(function*() {
        const { answer, forwarded } = yield* paidCall((paid) => ({ "payment-signature": paid, "connection": "upgrade", "upgrade": "websocket" }))
        assert.strictEqual(answer.status, 200, answer.text)
        assert.strictEqual(forwarded.length, 1)
        assert.isUndefined(forwarded[0]?.headers["upgrade"])
      }))
  })
})
