import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { challengeOf, credential, pay, refs } from "../support/PayByHand.ts"
import { paidCallEnv } from "../support/Scenario.ts"
import { Upstream } from "../support/Upstream.ts"
import { paidService, rawRequest } from "../support/PaidEnv.ts"

/**
 * Threat: an agent (or anyone holding a payment) calling a seller's API with
 * a method the seller did not list, e.g. DELETE on a GET service, with the
 * seller's credential attached. Only the declared method (and HEAD beside
 * GET) is challenged, accepted and forwarded.
 */
describe("security: a service is called only with its declared method", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("a GET service called as DELETE, PUT or PROPFIND is refused with 405 and no forward, paid or not", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const { terms, nonce } = yield* challengeOf(entry.resourceUrl)
        const digest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
        const calls = upstream.calls.length
        for (const method of ["DELETE", "PUT", "PROPFIND", "POST", "PATCH"]) {
          const paid = yield* credential(entry.resourceUrl, terms, digest, { signer: agentKey, method })
          for (const headers of [{}, { "payment-signature": paid }]) {
            const answer = yield* rawRequest(entry.resourceUrl, { method, headers })
            assert.strictEqual(answer.status, 405, `${method}`)
            assert.strictEqual(answer.headers["allow"], "GET, HEAD", method)
            assert.deepInclude(JSON.parse(answer.text), { ok: false, code: "INVALID", reason: "method_not_allowed" }, method)
          }
        }
        assert.strictEqual(upstream.calls.length, calls, "nothing reached the seller")

        // The payment is untouched: the declared method still redeems it.
        const get = yield* credential(entry.resourceUrl, terms, digest, { signer: agentKey })
        const answer = yield* rawRequest(entry.resourceUrl, { headers: { "payment-signature": get } })
        assert.strictEqual(answer.status, 200)
        assert.strictEqual(upstream.calls.at(-1)?.method, "GET")
      }))

    it.effect("HEAD beside GET is challenged", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const { entry } = yield* paidService(upstream.url)
        const head = yield* rawRequest(entry.resourceUrl, { method: "HEAD" })
        assert.strictEqual(head.status, 402)
      }))
  })
})
