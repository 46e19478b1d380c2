import { assert, describe, layer } from "@effect/vitest"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { decodePaymentSignatureHeader } from "@x402/core/http"
import { Effect, Layer } from "effect"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { makeAgent } from "@gateway/client/AgentSdk"
import { eventType } from "@gateway/domain/chain/SpendAccountModule"
import { gatewayFor } from "../../server/test/support/PaidEnv.ts"
import { suiHeldBy } from "../../server/test/support/SignByHand.ts"
import { grantSpent, poolBalance, sessionOnChain } from "../../server/test/support/SessionByHand.ts"
import { TestLedger } from "../../server/test/support/TestLedger.ts"
import { Upstream } from "../../server/test/support/Upstream.ts"
import { PRICE, sellerSessions, sessionService } from "./support/SessionService.ts"

const env = Layer.unwrap(Effect.map(Upstream, (upstream) => gatewayFor([upstream.url]))).pipe(Layer.provideMerge(Upstream.layer))

/** The latest checkpoint's sequence number. */
const latestCheckpoint = Effect.flatMap(LocalLedger, (ledger) => Effect.map(ledger.latestCheckpoint, (c) => c.sequenceNumber))

/** The digests of every transaction `sender` sent, in the checkpoints since `fromSeq`. */
const sentBy = (sender: string, fromSeq: bigint) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const latest = yield* ledger.latestCheckpoint
    const digests: Array<string> = []
    for (let seq = fromSeq; seq <= latest.sequenceNumber; seq++) {
      for (const digest of (yield* ledger.getCheckpoint(seq))?.transactions ?? []) {
        const tx = yield* ledger.getTransaction(digest)
        if (tx !== undefined && normalizeSuiAddress(tx.data.V1.sender) === normalizeSuiAddress(sender)) digests.push(digest)
      }
    }
    return digests
  })

/** The event types a transaction emitted. */
const eventsOf = (digest: string) =>
  Effect.flatMap(TestLedger, (ledger) =>
    Effect.promise(() => ledger.client.core.getTransaction({ digest, include: { events: true } })).pipe(
      Effect.map((result) => ((result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction).events ?? []).map((e) => e.eventType))
    ))

/** The voucher a presented `sui-session` credential carries. */
const voucherOf = (credential: string | undefined) => decodePaymentSignatureHeader(credential ?? "").payload

describe("the agent SDK pays from sessions: one deposit on chain, a voucher per call", () => {
  layer(env, { excludeTestServices: true, timeout: 120_000 })((it) => {
    it.effect("30 calls to one seller: one SessionOpened, 30 answers, the seller's listing shows 30 × price; a failed call costs nothing and is retried with the same voucher; closing returns the rest", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const s = yield* sessionService()
        const agent = makeAgent({ manifest: s.manifest, signer: s.agentKey, client: ledger.client, payment: "session", sessionCalls: 50 })
        const [poolBefore, payeeBefore, fromSeq] = [yield* poolBalance(s.grant.pool), yield* suiHeldBy(s.entry.payTo), yield* latestCheckpoint]
        let answers = 0
        for (let call = 1; call <= 30; call++) {
          if (call === 15) {
            s.upstream.failing = true
            const failed = yield* agent.fetchPaid(s.entry.resourceUrl).pipe(Effect.ensuring(Effect.sync(() => {
              s.upstream.failing = false
            })))
            assert.strictEqual(failed.response.status, 503)
            assert.isFalse(failed.charged)
            const retried = yield* agent.fetchPaid(s.entry.resourceUrl)
            assert.strictEqual(retried.response.status, 200)
            assert.strictEqual(retried.credential, failed.credential, "the retry presents the same voucher")
            assert.strictEqual(voucherOf(retried.credential)["cumulativeAmount"], String(15n * PRICE))
            answers++
            continue
          }
          const paid = yield* agent.fetchPaid(s.entry.resourceUrl)
          if (paid.response.status !== 200) assert.fail(`call ${call}: ${paid.response.status} ${yield* Effect.promise(() => paid.response.text())}`)
          assert.isTrue(paid.charged)
          assert.strictEqual(paid.receipt?.transaction, `${paid.session?.sessionId}:${BigInt(call) * PRICE}`)
          answers++
        }
        assert.strictEqual(answers, 30)
        assert.strictEqual(s.calls(), 31, "30 answers and the failed forward")

        const sent = yield* sentBy(s.agentKey.toSuiAddress(), fromSeq)
        assert.strictEqual(sent.length, 1, "the agent's only transaction is the open")
        assert.include(yield* eventsOf(sent[0] ?? ""), eventType(ledger.pkg.originalId, "SessionOpened"))
        const [opened] = agent.sessions()
        assert.strictEqual(agent.sessions().length, 1)
        assert.strictEqual(opened?.deposit, 50n * PRICE, "deposit = sessionCalls × price")
        assert.strictEqual(yield* grantSpent(s.grant.grantObjectId), 50n * PRICE, "the deposit counts against the budget while open")

        const used = 30n * PRICE
        const listed: Record<string, unknown> = { ...(yield* sellerSessions(s))[0] }
        assert.deepInclude(listed, { sessionId: opened?.sessionId, used: used.toString(), calls: "30", state: "open" })

        const closed = yield* agent.closeSessions()
        assert.deepStrictEqual(closed.map((c) => c._tag), ["Closed"])
        assert.deepInclude({ ...closed[0] }, { claimed: used, returned: 50n * PRICE - used })
        assert.isUndefined(yield* sessionOnChain(opened?.sessionId ?? ""), "the session object is gone")
        assert.strictEqual(poolBefore - (yield* poolBalance(s.grant.pool)), used, "the rest went back to the pool")
        assert.strictEqual(yield* grantSpent(s.grant.grantObjectId), used, "and to the grant's budget")
        assert.strictEqual((yield* suiHeldBy(s.entry.payTo)) - payeeBefore, used, "the seller got exactly 30 × price")
        assert.deepStrictEqual(yield* agent.closeSessions(), [], "nothing left to close")
      }), { timeout: 120_000 })

    it.effect("a deposit for 3 calls: the 4th call opens the next session; every session, even one never charged, closes", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const s = yield* sessionService()
        const agent = makeAgent({ manifest: s.manifest, signer: s.agentKey, client: ledger.client, payment: "session", sessionCalls: 3 })
        const poolBefore = yield* poolBalance(s.grant.pool)
        for (let call = 1; call <= 7; call++) assert.strictEqual((yield* agent.fetchPaid(s.entry.resourceUrl)).response.status, 200)
        assert.deepStrictEqual(agent.sessions().map((x) => x.charged), [3n * PRICE, 3n * PRICE, PRICE])
        assert.deepStrictEqual(agent.sessions().map((x) => x.deposit), [3n * PRICE, 3n * PRICE, 3n * PRICE])

        // A session never charged: another agent of the same grant opens one for a call whose seller fails.
        const idle = makeAgent({ manifest: s.manifest, signer: s.agentKey, client: ledger.client, payment: "session", sessionCalls: 2 })
        s.upstream.failing = true
        const idleCall = yield* idle.fetchPaid(s.entry.resourceUrl).pipe(Effect.ensuring(Effect.sync(() => {
          s.upstream.failing = false
        })))
        assert.strictEqual(idleCall.response.status, 503)
        const closed = [...(yield* agent.closeSessions()), ...(yield* idle.closeSessions())]
        assert.deepStrictEqual(closed.map((c) => c._tag), ["Closed", "Closed", "Closed", "Closed"])
        assert.deepStrictEqual(closed.map((c) => c._tag === "Closed" ? [c.claimed, c.returned] : []), [
          [3n * PRICE, 0n],
          [3n * PRICE, 0n],
          [PRICE, 2n * PRICE],
          [0n, 2n * PRICE]
        ])
        assert.strictEqual(poolBefore - (yield* poolBalance(s.grant.pool)), 7n * PRICE, "only the 7 answered calls were paid")
        assert.strictEqual(yield* grantSpent(s.grant.grantObjectId), 7n * PRICE)
      }), { timeout: 120_000 })

    it.effect("calls made at once take turns on their session: all answered, each voucher one price above the last, one session, expiring with the grant", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const s = yield* sessionService(10_000n, Date.now() + 3_600_000)
        const agent = makeAgent({ manifest: s.manifest, signer: s.agentKey, client: ledger.client, payment: "session", sessionCalls: 20 })
        const paid = yield* Effect.all(Array.from({ length: 8 }, () => agent.fetchPaid(s.entry.resourceUrl)), { concurrency: 8 })
        assert.deepStrictEqual(paid.map((p) => p.response.status), Array.from({ length: 8 }, () => 200))
        assert.deepStrictEqual(paid.map((p) => p.session?.cumulative ?? 0n).sort((a, b) => Number(a - b)), Array.from({ length: 8 }, (_, i) => BigInt(i + 1) * PRICE))
        assert.strictEqual(agent.sessions().length, 1)
        assert.strictEqual(agent.sessions()[0]?.expiryMs, BigInt(s.grant.expiry), "the grant expires within the day: the session with it")
        assert.strictEqual(s.calls(), 8)
      }))
  })
})
