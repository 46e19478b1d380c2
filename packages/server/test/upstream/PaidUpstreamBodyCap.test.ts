import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { challengeOf, credential, pay, refs } from "../support/PayByHand.ts"
import { gatewayFor, paidService, serve } from "../support/PaidEnv.ts"

const MiB = 1024 * 1024
const CAP = 10 * MiB
const HUGE = 64 * MiB

/** Streams `HUGE` bytes without holding them: 64 KiB at a time, waiting whenever the socket is full. */
const huge = serve((_request, response) => {
  response.writeHead(200, { "content-type": "application/octet-stream" })
  const chunk = Buffer.alloc(64 * 1024, 1)
  let sent = 0
  const more = () => {
    while (sent < HUGE) {
      sent += chunk.length
      if (!response.write(chunk)) return void response.once("drain", more)
    }
    response.end()
  }
  response.on("error", () => {})
  more()
})

/** The most of this process's memory outside the JS heap (Buffers) seen while `effect` runs, above what it was before. */
const peakExternalGrowth = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    global.gc?.()
    const before = process.memoryUsage().arrayBuffers
    let peak = before
    const timer = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers)
    }, 2)
    const result = yield* Effect.ensuring(effect, Effect.sync(() => clearInterval(timer)))
    peak = Math.max(peak, process.memoryUsage().arrayBuffers)
    return { result, growth: peak - before }
  })

/**
 * Threat: a seller (or whatever its upstream points at) filling the gateway's
 * memory with an unbounded answer. The answer is read as a stream and
 * abandoned at the cap; the payer's payment stays redeemable.
 */
describe("security: a seller's answer is read within a byte cap", () => {
  it.live("a 64 MiB answer leaves the gateway's memory within the cap; the payer gets UNAVAILABLE and keeps the payment", () =>
    Effect.gen(function*() {
      const upstream = yield* huge
      yield* Effect.gen(function*() {
        const { entry, agentKey, manifest } = yield* paidService(`${upstream.url}/answer`)
        const { terms, nonce } = yield* challengeOf(entry.resourceUrl)
        const digest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
        const paid = yield* credential(entry.resourceUrl, terms, digest, { signer: agentKey })
        const { result, growth } = yield* peakExternalGrowth(
          Effect.promise(() => fetch(entry.resourceUrl, { headers: { "payment-signature": paid } }).then(async (r) => ({ status: r.status, text: await r.text() })))
        )
        assert.strictEqual(result.status, 503)
        assert.deepInclude(JSON.parse(result.text), { code: "UNAVAILABLE", reason: "upstream_answer_too_large_retry_with_the_same_credential" })
        // Bounded well below the 64 MiB sent: the kept chunks (the cap), the socket's reads and the stream
        // adapter's copies of them, which are garbage but counted until a collection runs.
        assert.isBelow(growth, 4 * CAP, `grew ${(growth / MiB).toFixed(1)} MiB`)
        // The payment is kept: presenting it again tries the seller again rather than calling it used.
        const again = yield* Effect.promise(() => fetch(entry.resourceUrl, { headers: { "payment-signature": paid } }).then((r) => r.json()))
        assert.deepInclude(again, { code: "UNAVAILABLE", reason: "upstream_answer_too_large_retry_with_the_same_credential" })
      }).pipe(Effect.provide(gatewayFor([upstream.url])))
    }).pipe(Effect.scoped))
})
