import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Duration, Effect, Fiber, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { FetchLayer, makeApiClient } from "@gateway/client"
import { HeldUpstream } from "../support/HeldUpstream.ts"
import { challengeOf, credential, pay, refs } from "../support/PayByHand.ts"
import { createRequest, fundedOwner, grantedAgent, liveService } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl, layerTestServer, StoreSwitch, SwitchableStore } from "../support/TestServer.ts"

/**
 * Faults of the chain and of the store while requests are in flight: each
 * request is answered (success, or 503 with the spec body), a refused request
 * wrote nothing, and the same request succeeds once the fault is gone.
 */

const CHAIN_DOWN = { ok: false, code: "UNAVAILABLE", message: "The chain is unavailable", reason: "chain_unreachable" }
const STORE_DOWN = { ok: false, code: "UNAVAILABLE", message: "The store is unavailable", reason: "store_unreachable" }
const IN_FLIGHT = { ok: false, code: "CONFLICT", message: "This payment is being used by another request", reason: "payment_in_flight" }
const NO_FAULTS = { unavailable: false, delayMs: 0, neverFinal: false, dropAfterExecute: false }

interface Answer {
  readonly status: number
  readonly body: unknown
}

/** One request's status and JSON body, bounded: a hung request fails the test instead of stalling it. */
const send = (url: string, init: RequestInit = {}) =>
  Effect.promise((): Promise<Answer> =>
    fetch(url, { ...init, signal: AbortSignal.timeout(5_000) }).then(async (r) => ({ status: r.status, body: await r.json() }))
  )

/** The same request again while it is 503 (the server reconnecting on its own), for at most two seconds. */
const afterRecovery = (request: Effect.Effect<Answer>) =>
  Effect.retry(Effect.filterOrFail(request, (a) => a.status !== 503, (a) => a), { schedule: Schedule.spaced("25 millis"), times: 80 }).pipe(
    Effect.orDie
  )

/** A check of the store, repeated while the store is reconnecting after a cut, for at most two seconds. */
const untilStoreAnswers = <A, E>(check: Effect.Effect<A, E>) =>
  Effect.retry(check, { schedule: Schedule.spaced("25 millis"), times: 80 }).pipe(Effect.orDie)

/** The seller's calls for one paid request, told apart by the query string the gateway forwards. */
const callsFor = (upstream: HeldUpstream["Service"], tag: string) => upstream.calls.filter((url) => url === `/answer?call=${tag}`).length

/**
 * A gateway whose ledger checkpoints by itself, over a store the test can take down or cut, with a held seller:
 * the seller's `host:port` is the gateway's only allow-listed upstream.
 */
const Env = Layer.unwrap(
  Effect.gen(function*() {
    const upstream = yield* HeldUpstream
    const server = layerTestServer({ ledgerCheckpointMs: 20, upstreamAllowHosts: [new URL(upstream.url).host] }, SwitchableStore)
    return Layer.mergeAll(TestLedger.layer.pipe(Layer.provideMerge(server), Layer.provideMerge(SwitchableStore)), FetchLayer)
  })
).pipe(Layer.provideMerge(HeldUpstream.layer))

/**
 * An owner with a live 40-MIST service at the held upstream and an agent with
 * a grant; `paid` pays a fresh challenge on chain, `pendingGrant` prepares a
 * signer and executes its create on chain, both ready to be presented.
 */
const setup = Effect.gen(function*() {
  const baseUrl = yield* BaseUrl
  const upstream = yield* HeldUpstream
  const ledger = yield* TestLedger
  const sql = yield* SqlClient.SqlClient
  const client = yield* makeApiClient(baseUrl)
  const { owner, session, asOwner } = yield* fundedOwner(client)
  const { entry } = yield* liveService(client, { price: 40n, upstreamUrl: upstream.url })
  const { agentKey, manifest } = yield* grantedAgent(client, owner, asOwner, { key: `faults-${entry.id}`, budget: 100_000n, perPayment: 100n })

  const challenge = challengeOf(entry.resourceUrl)
  const payChallenge = (tag: string, { terms, nonce }: Effect.Success<typeof challenge>) =>
    Effect.gen(function*() {
      const digest = yield* pay({ agentKey, ...refs(manifest), amount: BigInt(terms.amount), recipient: terms.payTo, nonce })
      // Proven by the agent that paid, for this very request: every presentation below is the payer's own.
      const url = `${entry.resourceUrl}?call=${tag}`
      const header = yield* credential(url, terms, digest, { signer: agentKey })
      return { tag, digest, present: send(url, { headers: { "payment-signature": header } }) }
    })
  const paid = (tag: string) => Effect.flatMap(challenge, (asked) => payChallenge(tag, asked))

  const pendingGrant = (key: string) =>
    Effect.gen(function*() {
      const created = yield* client.delegatedSigners.create(createRequest(new Ed25519Keypair().toSuiAddress(), key)).pipe(asOwner)
      const grant = created.grants[0]
      if (grant === undefined) return yield* Effect.die("no grant was prepared")
      const digest = yield* ledger.execute(grant.txKindBytes, owner)
      yield* ledger.checkpoint
      const finalize = send(`${baseUrl}/v1/delegated-signers/${created.delegatedSignerId}/grants/${grant.grantId}/finalize`, {
        method: "POST",
        headers: { authorization: session.authorization, "content-type": "application/json" },
        body: JSON.stringify({ digest })
      })
      return { grantId: grant.grantId, finalize }
    })

  /** The grant as stored: a finalize moves status, object id and transition record together or not at all. */
  const grantRow = (grantId: string) =>
    Effect.map(
      sql<{ status: string; bound: boolean; transitions: number }>`
        SELECT g.status, g.grant_object_id IS NOT NULL AS bound,
          (SELECT count(*)::int FROM grant_transitions t WHERE t.grant_id = g.id) AS transitions
        FROM grants g WHERE g.id = ${grantId}`,
      (rows) => rows[0] ?? { status: "missing", bound: false, transitions: 0 }
    )
  const paymentStatus = (digest: string) =>
    Effect.map(sql<{ status: string }>`SELECT status FROM payments WHERE digest = ${digest}`, (rows) => rows[0]?.status ?? "none")

  return { upstream, challenge, payChallenge, paid, pendingGrant, grantRow, paymentStatus, sql }
})

const PENDING = { status: "pending", bound: false, transitions: 0 }
const ACTIVE = { status: "active", bound: true, transitions: 1 }

describe("the chain failing", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("unavailable: finalize and paid calls are 503 with the body, write nothing, and succeed once it is back", () =>
      Effect.gen(function*() {
        const ledger = yield* LocalLedger
        const { upstream, paid, pendingGrant, grantRow, paymentStatus } = yield* setup
        const grant = yield* pendingGrant("chain-down")
        const call = yield* paid("chain-down")

        yield* ledger.setFaults({ unavailable: true })
        assert.deepStrictEqual(yield* grant.finalize, { status: 503, body: CHAIN_DOWN })
        assert.deepStrictEqual(yield* call.present, { status: 503, body: CHAIN_DOWN })
        assert.deepStrictEqual(yield* grantRow(grant.grantId), PENDING)
        assert.strictEqual(yield* paymentStatus(call.digest), "none")
        assert.strictEqual(callsFor(upstream, call.tag), 0)

        yield* ledger.setFaults({ unavailable: false })
        const finalized = yield* grant.finalize
        assert.strictEqual(finalized.status, 200)
        assert.deepInclude(finalized.body, { status: "active", alreadyFinalized: false })
        assert.deepStrictEqual(yield* call.present, { status: 200, body: { answer: 42 } })
        assert.deepStrictEqual(yield* grantRow(grant.grantId), ACTIVE)
        assert.strictEqual(yield* paymentStatus(call.digest), "forwarded")
        assert.strictEqual(callsFor(upstream, call.tag), 1)
      }).pipe(Effect.ensuring(LocalLedger.use((l) => l.setFaults(NO_FAULTS)))))

    it.effect("going away under load, mid-request: each answer is 200 or 503 with the body, the refused wrote nothing, all pass once after", () =>
      Effect.gen(function*() {
        const ledger = yield* LocalLedger
        const { upstream, paid, pendingGrant, grantRow, paymentStatus } = yield* setup
        const calls = yield* Effect.forEach([0, 1, 2, 3, 4, 5, 6, 7], (n) => paid(`load-${n}`))
        const grants = yield* Effect.forEach([0, 1, 2, 3], (n) => pendingGrant(`chain-load-${n}`))
        // Paid calls and finalizes interleaved, so both kinds start before and after the chain goes away.
        const requests = calls.flatMap((c, i) => {
          const g = grants[i]
          return [
            { kind: "call" as const, send: c.present, check: paymentStatus(c.digest), tag: c.tag },
            ...(g === undefined ? [] : [{ kind: "finalize" as const, send: g.finalize, check: grantRow(g.grantId), tag: g.grantId }])
          ]
        })

        // Every chain call now takes 150 ms; requests start 25 ms apart, and the chain goes away at 100 ms,
        // so the early ones are inside a chain call when it does and the later ones reach it afterwards.
        yield* ledger.setFaults({ delayMs: 150 })
        const [answers] = yield* Effect.all([
          Effect.forEach(requests, (r, i) => Effect.delay(r.send, Duration.millis(25 * i)), { concurrency: "unbounded" }),
          Effect.delay(ledger.setFaults({ unavailable: true }), "100 millis")
        ], { concurrency: 2 })

        const refused = requests.filter((_, i) => answers[i]?.status === 503)
        assert.isAtLeast(refused.length, 1)
        for (const [i, answer] of answers.entries()) {
          if (answer.status !== 200) assert.deepStrictEqual(answer, { status: 503, body: CHAIN_DOWN }, requests[i]?.tag)
        }
        for (const r of refused) {
          assert.deepStrictEqual(yield* r.check, r.kind === "call" ? "none" : PENDING, r.tag)
          if (r.kind === "call") assert.strictEqual(callsFor(upstream, r.tag), 0, r.tag)
        }

        yield* ledger.setFaults(NO_FAULTS)
        for (const r of refused) assert.strictEqual((yield* r.send).status, 200, r.tag)
        for (const c of calls) {
          assert.strictEqual(callsFor(upstream, c.tag), 1, c.tag)
          assert.strictEqual(yield* paymentStatus(c.digest), "forwarded", c.tag)
        }
        for (const g of grants) assert.deepStrictEqual(yield* grantRow(g.grantId), ACTIVE)
      }).pipe(Effect.ensuring(LocalLedger.use((l) => l.setFaults(NO_FAULTS)))))

    it.effect("a payment the chain has not made final, or dropped, spends nothing, and its challenge pays once the chain is whole", () =>
      Effect.gen(function*() {
        const ledger = yield* LocalLedger
        const testLedger = yield* TestLedger
        const { upstream, challenge, payChallenge, paid, paymentStatus } = yield* setup

        yield* ledger.setFaults({ neverFinal: true })
        const late = yield* paid("never-final")
        const notFinal = yield* late.present
        assert.strictEqual(notFinal.status, 409)
        assert.deepInclude(notFinal.body, { ok: false, code: "NOT_FINAL" })
        assert.strictEqual(yield* paymentStatus(late.digest), "none")
        yield* ledger.setFaults({ neverFinal: false })
        yield* testLedger.checkpoint
        assert.deepStrictEqual(yield* late.present, { status: 200, body: { answer: 42 } })
        assert.strictEqual(callsFor(upstream, late.tag), 1)

        yield* ledger.setFaults({ dropAfterExecute: true })
        const asked = yield* challenge
        const dropped = yield* payChallenge("dropped", asked)
        const unknown = yield* dropped.present
        assert.strictEqual(unknown.status, 409)
        assert.deepInclude(unknown.body, { ok: false, code: "NOT_FINAL", reason: "unknown_digest" })
        assert.strictEqual(yield* paymentStatus(dropped.digest), "none")
        assert.strictEqual(callsFor(upstream, dropped.tag), 0)
        yield* ledger.setFaults({ dropAfterExecute: false })
        // The dropped payment spent no nonce: the same challenge is paid again, and forwarded once.
        const repaid = yield* payChallenge("repaid", asked)
        assert.deepStrictEqual(yield* repaid.present, { status: 200, body: { answer: 42 } })
        assert.strictEqual(callsFor(upstream, repaid.tag), 1)
        assert.strictEqual(yield* paymentStatus(repaid.digest), "forwarded")
      }).pipe(Effect.ensuring(LocalLedger.use((l) => l.setFaults(NO_FAULTS)))))
  })
})

describe("the store failing during paid calls", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("down for the whole call: 503 with the body and nothing forwarded; after, the same credential forwards exactly once", () =>
      Effect.gen(function*() {
        const store = yield* StoreSwitch
        const { upstream, paid, paymentStatus } = yield* setup
        const call = yield* paid("store-down")

        yield* store.down
        assert.deepStrictEqual(yield* call.present, { status: 503, body: STORE_DOWN })
        assert.strictEqual(callsFor(upstream, call.tag), 0)
        yield* store.up

        assert.deepStrictEqual(yield* afterRecovery(call.present), { status: 200, body: { answer: 42 } })
        assert.strictEqual(yield* paymentStatus(call.digest), "forwarded")
        // The payer presenting it again gets the kept answer; the seller is not called again.
        assert.deepStrictEqual(yield* call.present, { status: 200, body: { answer: 42 } })
        assert.strictEqual(callsFor(upstream, call.tag), 1)
      }))

    it.effect("down while the seller answers: 503, the payment stays in flight (never forwarded twice) until the stale window frees it", () =>
      Effect.gen(function*() {
        const store = yield* StoreSwitch
        const { upstream, paid, paymentStatus, sql } = yield* setup
        const call = yield* paid("store-mid-forward")

        const held = upstream.hold()
        const answer = yield* Effect.forkChild(call.present)
        yield* Effect.promise(() => held.arrived)
        yield* store.down
        held.release()
        assert.deepStrictEqual(yield* Fiber.join(answer), { status: 503, body: STORE_DOWN })
        yield* store.up

        // The seller answered but the settling write failed: the row still says in flight, as a request that died would leave it.
        assert.deepStrictEqual(yield* afterRecovery(call.present), { status: 409, body: IN_FLIGHT })
        assert.strictEqual(yield* paymentStatus(call.digest), "forwarding")
        assert.strictEqual(callsFor(upstream, call.tag), 1)

        // Past the 60 s stale window (moved back rather than waited for) the same credential takes it over and forwards once more.
        yield* sql`UPDATE payments SET updated_at = updated_at - interval '61 seconds' WHERE digest = ${call.digest}`
        assert.deepStrictEqual(yield* call.present, { status: 200, body: { answer: 42 } })
        assert.strictEqual(yield* paymentStatus(call.digest), "forwarded")
        // Settled now: presenting it again is the kept answer, not a third forward.
        assert.deepStrictEqual(yield* call.present, { status: 200, body: { answer: 42 } })
        assert.strictEqual(callsFor(upstream, call.tag), 2)
      }))

    it.effect("connections cut under load: each answer is 200 or 503 with the body, nothing half-written, nothing forwarded twice", () =>
      Effect.gen(function*() {
        const store = yield* StoreSwitch
        const { upstream, paid, pendingGrant, grantRow, paymentStatus } = yield* setup
        const calls = yield* Effect.forEach([0, 1, 2, 3, 4, 5, 6, 7], (n) => paid(`cut-${n}`))
        const grants = yield* Effect.forEach([0, 1, 2, 3], (n) => pendingGrant(`store-cut-${n}`))

        // PGlite: its socket server restarts; PostgreSQL: pg_terminate_backend on this test's own connections. Twice, 30 ms apart.
        const cuts = Effect.andThen(Effect.sleep("10 millis"), Effect.andThen(store.cut, Effect.andThen(Effect.sleep("30 millis"), store.cut)))
        const [[callAnswers, finalizeAnswers]] = yield* Effect.all([
          Effect.all([
            Effect.forEach(calls, (c) => c.present, { concurrency: "unbounded" }),
            Effect.forEach(grants, (g) => g.finalize, { concurrency: "unbounded" })
          ], { concurrency: 2 }),
          cuts
        ], { concurrency: 2 })
        for (const answer of [...callAnswers, ...finalizeAnswers]) {
          if (answer.status !== 200) assert.deepStrictEqual(answer, { status: 503, body: STORE_DOWN })
        }

        // A finalize moved its grant whole or not at all; whatever it answered, the retry finalizes it.
        for (const [i, g] of grants.entries()) {
          const row = yield* untilStoreAnswers(grantRow(g.grantId))
          if (finalizeAnswers[i]?.status === 200) assert.deepStrictEqual(row, ACTIVE)
          else assert.include([JSON.stringify(PENDING), JSON.stringify(ACTIVE)], JSON.stringify(row))
          const retried = yield* afterRecovery(g.finalize)
          assert.strictEqual(retried.status, 200)
          assert.deepInclude(retried.body, { status: "active", alreadyFinalized: row.status === "active" })
        }

        // A payment is recorded before its one forward. Not recorded: the retry forwards it. Forwarded: the retry gets the
        // kept answer, the seller not called again. Left in flight (the request lost the store between its writes): the
        // retry waits for the stale window.
        for (const [i, c] of calls.entries()) {
          const status = yield* untilStoreAnswers(paymentStatus(c.digest))
          const before = callsFor(upstream, c.tag)
          const retried = yield* afterRecovery(c.present)
          switch (status) {
            case "none":
              assert.strictEqual(before, 0, c.tag)
              assert.deepStrictEqual(retried, { status: 200, body: { answer: 42 } }, c.tag)
              break
            case "forwarded":
              assert.strictEqual(before, 1, c.tag)
              assert.deepStrictEqual(retried, { status: 200, body: { answer: 42 } }, c.tag)
              break
            case "forwarding":
              assert.notStrictEqual(callAnswers[i]?.status, 200, c.tag)
              assert.isAtMost(before, 1, c.tag)
              assert.deepStrictEqual(retried, { status: 409, body: IN_FLIGHT }, c.tag)
              break
            default:
              assert.fail(`${c.tag}: payment ${status}`)
          }
          if (callAnswers[i]?.status === 200) assert.strictEqual(status, "forwarded", c.tag)
          assert.strictEqual(callsFor(upstream, c.tag), status === "forwarding" ? before : 1, c.tag)
        }
      }))
  })
})
