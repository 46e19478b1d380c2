import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { challengeOf, credential, pay, refs } from "../support/PayByHand.ts"
import { gatewayFor, paidService, serve } from "../support/PaidEnv.ts"

/**
 * Threat: a seller using the gateway to reach what is not theirs (SSRF): an
 * allow-listed upstream that redirects to loopback (standing for the cloud
 * metadata service or any internal API). The gateway never follows a redirect:
 * the payer gets the seller's 3xx as it came, without its Location, and the
 * internal service is never called.
 */
describe("security: the gateway never follows an upstream's redirect", () => {
  it.live("a redirect to a loopback service is not followed; the payer gets the 3xx without Location", () =>
    Effect.gen(function*() {
      const internal = yield* serve((_request, response) => {
        response.writeHead(200, { "content-type": "text/plain" })
        response.end("internal secret")
      })
      const seller = yield* serve((_request, response) => {
        response.writeHead(302, { location: `${internal.url}/latest/meta-data`, "content-type": "text/plain" })
        response.end("moved")
      })
      yield* Effect.gen(function*() {
        const { entry, agentKey, manifest } = yield* paidService(`${seller.url}/answer`)
        const { terms, nonce } = yield* challengeOf(entry.resourceUrl)
        const digest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
        const paid = yield* credential(entry.resourceUrl, terms, digest, { signer: agentKey })
        const answer = yield* Effect.promise(() =>
          fetch(entry.resourceUrl, { headers: { "payment-signature": paid }, redirect: "manual" })
            .then(async (r) => ({ status: r.status, location: r.headers.get("location"), text: await r.text() }))
        )
        assert.deepStrictEqual(answer, { status: 302, location: null, text: "moved" })
        assert.deepStrictEqual(internal.calls, [], "the internal service was never called")
        assert.strictEqual(seller.calls.length, 1)
      }).pipe(Effect.provide(gatewayFor([seller.url])))
    }).pipe(Effect.scoped))
})
