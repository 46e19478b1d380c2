import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { UpstreamForwarder } from "../../src/upstream/UpstreamForwarder.ts"
import { serve } from "../support/PaidEnv.ts"

const limits = (allowHosts: ReadonlyArray<string>, ownHosts: ReadonlyArray<string> = []) => ({ allowHosts, ownHosts, maxBodyBytes: 1024, timeoutMs: 5_000 })

/**
 * Threat: SSRF at connect time. Registration checked the URL once; what is
 * dialled is checked again on every forward, on the resolved address, so a
 * name that now resolves to loopback (DNS rebinding) or a literal forbidden
 * address is refused without a connection, and so is the gateway itself.
 */
describe("security: the forward checks the address it dials", () => {
  it.live("a name resolving to loopback is refused at connect time even when its IP:port is allow-listed", () =>
    Effect.gen(function*() {
      const forwarder = yield* UpstreamForwarder
      const target = yield* serve((_request, response) => response.end("internal"))
      const port = new URL(target.url).port
      const answer = yield* forwarder.call({ url: `http://localhost:${port}/x`, method: "GET", headers: {}, body: undefined }, limits([`127.0.0.1:${port}`]))
      assert.deepStrictEqual(answer, { _tag: "Forbidden", reason: "upstream_address_is_loopback_private_or_reserved" })
      assert.deepStrictEqual(target.calls, [])
      // The allow-listed host:port itself is reached.
      const allowed = yield* forwarder.call({ url: `${target.url}/x`, method: "GET", headers: {}, body: undefined }, limits([`127.0.0.1:${port}`]))
      assert.strictEqual(allowed._tag, "Answered")
      assert.deepStrictEqual(target.calls, ["/x"])
    }).pipe(Effect.scoped, Effect.provide(UpstreamForwarder.layer)))

  it.live("literal metadata, private and mapped addresses are refused before dialling; the gateway's own host even when allow-listed", () =>
    Effect.gen(function*() {
      const forwarder = yield* UpstreamForwarder
      for (const url of ["http://169.254.169.254/latest/meta-data", "http://10.0.0.1/", "http://[::ffff:127.0.0.1]:80/", "http://[::1]/", "http://0.0.0.0:80/"]) {
        const answer = yield* forwarder.call({ url, method: "GET", headers: {}, body: undefined }, limits([]))
        assert.deepStrictEqual(answer, { _tag: "Forbidden", reason: "upstream_address_is_loopback_private_or_reserved" }, url)
      }
      const self = yield* forwarder.call({ url: "http://127.0.0.1:8787/v1/pay/svc", method: "GET", headers: {}, body: undefined }, limits(["127.0.0.1:8787"], ["127.0.0.1:8787"]))
      assert.deepStrictEqual(self, { _tag: "Forbidden", reason: "upstream_is_the_gateway_itself" })
    }).pipe(Effect.provide(UpstreamForwarder.layer)))
})
