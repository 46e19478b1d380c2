import { assert, describe, layer } from "@effect/vitest"
import { Effect, Fiber, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { makeApiClient } from "@gateway/client"
import { HeldUpstream } from "../support/HeldUpstream.ts"
import { challengeOf, refs } from "../support/PayByHand.ts"
import { gatewayFor } from "../support/PaidEnv.ts"
import { fundedOwner, grantedAgent, liveService } from "../support/Scenario.ts"
import { executedOnChain, presentSigned, signGrantPayment } from "../support/SignByHand.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"

const NO_FAULTS = { unavailable: false, delayMs: 0, neverFinal: false, dropAfterExecute: false }

const env = Layer.unwrap(Effect.map(HeldUpstream, (held) => gatewayFor([held.url]))).pipe(Layer.provideMerge(HeldUpstream.layer))

const statusOf = (digest: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql<{ status: string; settleError: string | null }>`SELECT status, settle_error FROM payments WHERE digest = ${digest}`, (rows) => rows[0]))

/** An owner with a live service at the held seller, an agent with a grant, and a fresh exact challenge signed through it. */
const setup = Effect.gen(function*() {
  const upstream = yield* HeldUpstream
  const client = yield* makeApiClient(yield* BaseUrl)
  const { owner, asOwner } = yield* fundedOwner(client)
  // The owner sells too: one session reads both the owner's and the seller's views.
  const { entry } = yield* liveService(client, { price: 40n, upstreamUrl: upstream.url, seller: asOwner })
  const { agentKey, manifest, signerId } = yield* grantedAgent(client, owner, asOwner, { key: `settle-${entry.id}`, budget: 10_000n, perPayment: 100n })
  const { terms, nonce } = yield* challengeOf(entry.resourceUrl, "GET", "exact")
  const signed = yield* signGrantPayment({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
  return { upstream, client, owner, asOwner, entry, signerId, terms, nonce, signed, agentKey, manifest }
})

/** Presents the payment while the seller is held, runs `meanwhile`, then lets the seller answer; the presentation's answer. */
const presentWhileHeld = <E, R>(setupDone: Effect.Success<typeof setup>, meanwhile: Effect.Effect<void, E, R>) =>
  Effect.gen(function*() {
    const gate = setupDone.upstream.hold()
    const presented = yield* Effect.forkChild(presentSigned(setupDone.entry.resourceUrl, setupDone.terms, setupDone.signed))
    yield* Effect.promise(() => gate.arrived)
    yield* meanwhile
    gate.release()
    return yield* Fiber.join(presented)
  })

describe("sign-first settlement after the seller answered", () => {
  layer(env, { excludeTestServices: true })((it) => {
    it.effect("the owner pauses the grant while the seller works: the answer is withheld, nothing moves, the record says why, and the payer pays upfront only", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const ledger = yield* TestLedger
        // Signed while the grant could still pay, to be presented after the failure.
        const next = yield* challengeOf(s.entry.resourceUrl, "GET", "exact")
        const signedNext = yield* signGrantPayment({ agentKey: s.agentKey, ...refs(s.manifest), amount: 40n, recipient: s.entry.payTo, nonce: next.nonce })
        const answer = yield* presentWhileHeld(s, Effect.gen(function*() {
          const pause = yield* s.client.delegatedSigners.preparePause({ params: { id: s.signerId } }).pipe(s.asOwner)
          for (const kind of pause.grants) yield* ledger.execute(kind.txKindBytes, s.owner)
        }))
        assert.strictEqual(answer.status, 502, JSON.stringify(answer.body))
        assert.deepInclude(answer.body, { code: "TX_FAILED" })
        assert.match(String(answer.body["reason"]), /^settlement_failed: simulation/)
        assert.notProperty(answer.body, "answer", "the seller's answer is not returned")
        assert.isFalse(yield* executedOnChain(s.signed.digest))
        const row = yield* statusOf(s.signed.digest)
        assert.strictEqual(row?.status, "settlement_failed")
        // The seller sees it in its payment listing, with why.
        const listed = yield* s.client.sellers.payments({ params: { id: s.entry.id }, query: {} }).pipe(s.asOwner)
        assert.deepInclude(listed.payments.find((p) => p.digest === s.signed.digest)?.outcome, { state: "settlement_failed" })
        // Presented again: the same failure, never a second forward.
        const calls = s.upstream.calls.length
        const again = yield* presentSigned(s.entry.resourceUrl, s.terms, s.signed)
        assert.strictEqual(again.status, 502)
        // A payer whose settlement failed could take answers for nothing again and again: it pays upfront for a day.
        const refused = yield* presentSigned(s.entry.resourceUrl, next.terms, signedNext)
        assert.strictEqual(refused.status, 409)
        assert.deepInclude(refused.body, { code: "CONFLICT", reason: "payer_upfront_only" })
        assert.strictEqual(s.upstream.calls.length, calls)
      }))

    it.effect("the chain is unreachable when the seller has answered: the answer is kept, and once the chain is back the payment settles by itself", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const local = yield* LocalLedger
        const callsBefore = s.upstream.calls.length
        const answer = yield* presentWhileHeld(s, local.setFaults({ unavailable: true }))
        assert.strictEqual(answer.status, 503, JSON.stringify(answer.body))
        assert.match(String(answer.body["reason"]), /^settlement_pending/)
        assert.strictEqual((yield* statusOf(s.signed.digest))?.status, "settling")
        yield* local.setFaults(NO_FAULTS)
        // Recovery runs every few seconds on every replica: the chain decides, and the payment executes once.
        const settled = yield* Effect.retry(
          Effect.filterOrFail(statusOf(s.signed.digest), (r) => r?.status === "settled", () => "not yet"),
          { schedule: Schedule.spaced("250 millis"), times: 60 }
        )
        assert.strictEqual(settled?.status, "settled")
        assert.isTrue(yield* executedOnChain(s.signed.digest))
        const kept = yield* presentSigned(s.entry.resourceUrl, s.terms, s.signed)
        assert.strictEqual(kept.status, 200)
        assert.deepInclude(kept.body, { answer: 42 })
        assert.strictEqual(s.upstream.calls.length - callsBefore, 1, "the seller was asked once")
      }).pipe(Effect.ensuring(LocalLedger.use((l) => l.setFaults(NO_FAULTS)))))

    it.effect("a crash after execution, before the settled record: recovery finds the transaction executed and records it, executing nothing twice", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const sql = yield* SqlClient.SqlClient
        const answer = yield* presentWhileHeld(s, Effect.void)
        assert.strictEqual(answer.status, 200)
        // The state a crash between the execution and its record leaves: the answer kept, the payment still settling.
        yield* sql`UPDATE payments SET status = 'settling', updated_at = now() - interval '1 minute' WHERE digest = ${s.signed.digest}`
        const settled = yield* Effect.retry(
          Effect.filterOrFail(statusOf(s.signed.digest), (r) => r?.status === "settled", () => "not yet"),
          { schedule: Schedule.spaced("250 millis"), times: 60 }
        )
        assert.strictEqual(settled?.status, "settled")
        const kept = yield* presentSigned(s.entry.resourceUrl, s.terms, s.signed)
        assert.strictEqual(kept.status, 200)
      }))

    it.effect("the epoch ends while the seller works: no ban, the payer signs the same challenge again and gets the kept answer, the seller asked once", () =>
      Effect.gen(function*() {
        const s = yield* setup
        const local = yield* LocalLedger
        const callsBefore = s.upstream.calls.length
        const answer = yield* presentWhileHeld(s, Effect.asVoid(local.advanceEpoch()))
        assert.strictEqual(answer.status, 409, JSON.stringify(answer.body))
        assert.match(String(answer.body["reason"]), /^payment_must_be_signed_again: /)
        assert.isFalse(yield* executedOnChain(s.signed.digest))
        // Signed again for the same challenge (its nonce), expiring with the new epoch.
        const again = yield* signGrantPayment({ agentKey: s.agentKey, ...refs(s.manifest), amount: 40n, recipient: s.entry.payTo, nonce: s.nonce })
        const answered = yield* presentSigned(s.entry.resourceUrl, s.terms, again)
        assert.strictEqual(answered.status, 200, JSON.stringify(answered.body))
        assert.deepInclude(answered.body, { answer: 42 })
        assert.isTrue(yield* executedOnChain(again.digest))
        assert.strictEqual(s.upstream.calls.length - callsBefore, 1, "the seller was asked once")
        // The kept answer pays one re-signed payment only.
        const third = yield* signGrantPayment({ agentKey: s.agentKey, ...refs(s.manifest), amount: 40n, recipient: s.entry.payTo, nonce: s.nonce })
        const refused = yield* presentSigned(s.entry.resourceUrl, s.terms, third)
        assert.strictEqual(refused.status, 409)
        assert.deepInclude(refused.body, { reason: "challenge_already_paid" })
      }))
  })
})
