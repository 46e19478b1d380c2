import { connect } from "node:net"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { FetchLayer } from "@gateway/client"
import { challengeOf, credential, pay, refs } from "../support/PayByHand.ts"
import { HeldUpstream } from "../support/HeldUpstream.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { layerTestServer } from "../support/TestServer.ts"
import { paidService } from "../support/PaidEnv.ts"
import { captureLogs } from "../support/LogCapture.ts"

const { logs, layer: Capture } = captureLogs()

/** A gateway logging into `logs`, whose only allow-listed upstream is the held seller. */
const Env = Layer.unwrap(Effect.map(HeldUpstream, (held) =>
  Layer.mergeAll(
    TestLedger.layer.pipe(
      Layer.provideMerge(layerTestServer({ ledgerCheckpointMs: 20, upstreamAllowHosts: [new URL(held.url).host] }, undefined, Capture))
    ),
    FetchLayer
  ))).pipe(Layer.provideMerge(HeldUpstream.layer))

/** A paid GET service and a credential, paid and proven, ready to be presented. */
const paidCredential = Effect.gen(function*() {
  const upstream = yield* HeldUpstream
  const { entry, agentKey, manifest } = yield* paidService(upstream.url)
  const { terms, nonce } = yield* challengeOf(entry.resourceUrl)
  const digest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
  return { entry, header: yield* credential(entry.resourceUrl, terms, digest, { signer: agentKey }) }
})

/** A paid call whose caller hangs up once `hangUpWhen` has resolved. */
const hangUp = (url: string, header: string, hangUpWhen: Effect.Effect<void>) =>
  Effect.gen(function*() {
    const caller = new AbortController()
    const call = fetch(url, { headers: { "payment-signature": header }, signal: caller.signal }).catch(() => undefined)
    yield* hangUpWhen
    caller.abort()
    yield* Effect.promise(() => call)
  })

/** What the server logged for that path: nothing at Error or Fatal, and one access line at Info with status 499. */
const assertLoggedAtInfo = (path: string) => {
  assert.deepStrictEqual(logs.filter((line) => line.level === "Error" || line.level === "Fatal"), [])
  const access = logs.filter((line) => line.annotations["http.url"] === path)
  assert.deepStrictEqual(access.map((line) => [line.level, line.annotations["http.status"]]), [["Info", 499]], JSON.stringify(logs))
}

/**
 * Threat (hole 11): a caller hanging up on a paid call is an everyday event,
 * not a failure of the gateway; logged as an error (and a 500) it floods the
 * error log and hides real defects. Whenever the caller leaves (while the
 * chain verifies its payment, while the seller answers, or halfway through
 * its body), the request is logged once, at Info, with status 499.
 */
describe("security: a caller that hangs up on a paid call is logged at Info", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("while the seller answers", () =>
      Effect.gen(function*() {
        const upstream = yield* HeldUpstream
        const { entry, header } = yield* paidCredential
        logs.length = 0
        const gate = upstream.hold()
        yield* hangUp(entry.resourceUrl, header, Effect.promise(() => gate.arrived))
        // The seller answers only after the gateway has seen the caller's connection close, as "while the seller answers"
        // means: released at once, its answer could reach the gateway before the hang-up does, and nobody would have left yet.
        yield* Effect.sleep("100 millis")
        gate.release()
        // The forward runs on to its settled record after the caller left; then the request ends.
        yield* Effect.sleep("300 millis")
        assertLoggedAtInfo(new URL(entry.resourceUrl).pathname)
      }))

    it.effect("while the chain verifies the payment", () =>
      Effect.gen(function*() {
        const ledger = yield* LocalLedger
        const { entry, header } = yield* paidCredential
        logs.length = 0
        yield* ledger.setFaults({ delayMs: 300 })
        yield* hangUp(entry.resourceUrl, header, Effect.sleep("100 millis"))
        yield* Effect.sleep("500 millis")
        assertLoggedAtInfo(new URL(entry.resourceUrl).pathname)
      }).pipe(Effect.ensuring(LocalLedger.use((l) => l.setFaults({ delayMs: 0 })))))

    it.effect("halfway through a POST body", () =>
      Effect.gen(function*() {
        const upstream = yield* HeldUpstream
        const { entry } = yield* paidService(upstream.url, "POST")
        const { hostname, port, pathname } = new URL(entry.resourceUrl)
        logs.length = 0
        yield* Effect.callback<void>((resume) => {
          const socket = connect(Number(port), hostname)
          socket.on("connect", () => {
            socket.write(`POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"add`)
            setTimeout(() => socket.destroy(), 100)
          })
          socket.on("close", () => resume(Effect.void))
        })
        yield* Effect.sleep("300 millis")
        assertLoggedAtInfo(pathname)
      }))
  })
})
