import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { isApiError } from "@gateway/domain/Errors"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { makeAgent } from "@gateway/client/AgentSdk"
import { failsWith } from "../support/Assertions.ts"
import { amount, createRequest, fundedOwner, grantedAgent, liveService, SUI } from "../support/Scenario.ts"
import { challengeOf, refs } from "../support/PayByHand.ts"
import { presentSigned, signGrantPayment } from "../support/SignByHand.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { Upstream } from "../support/Upstream.ts"
import { layerReplicas, ReplicaA, ReplicaB } from "../support/Replicas.ts"
import { BaseUrl, testConfig } from "../support/TestServer.ts"

/** The test's wallet reaches the chain through replica A's `/sui`; the recording upstream is allow-listed beside the test defaults. */
const Replicas = Layer.unwrap(
  Effect.gen(function*() {
    const upstream = yield* Upstream
    const config = { ...testConfig, upstreamAllowHosts: [...testConfig.upstreamAllowHosts, new URL(upstream.url).host] }
    return TestLedger.layer.pipe(
      Layer.provide(Layer.effect(BaseUrl, ReplicaA.useSync((a) => a))),
      Layer.provideMerge(layerReplicas(config)),
      Layer.orDie
    )
  })
).pipe(Layer.provideMerge(Upstream.layer))

describe("delegated signers under concurrency", () => {
  layer(Layer.mergeAll(Replicas, FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("20 concurrent presentations of one signed payment across two replicas make one forward and one execution", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const upstream = yield* Upstream
        const clients = [yield* makeApiClient(yield* ReplicaA), yield* makeApiClient(yield* ReplicaB)] as const
        const { entry } = yield* liveService(clients[0], { price: 40n, upstreamUrl: upstream.url })
        const { owner, asOwner } = yield* fundedOwner(clients[0])
        const { agentKey, manifest } = yield* grantedAgent(clients[0], owner, asOwner, { key: "replica-sign-first", budget: 1000n, perPayment: 100n })
        const { terms, nonce } = yield* challengeOf(entry.resourceUrl, "GET", "exact")
        const signed = yield* signGrantPayment({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
        upstream.failing = true
        assert.strictEqual((yield* presentSigned(entry.resourceUrl, terms, signed)).status, 503)
        upstream.failing = false
        const before = upstream.calls.length
        const urls = [entry.resourceUrl, entry.resourceUrl.replace(yield* ReplicaA, yield* ReplicaB)]
        const answers = yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => urls[i % 2] ?? entry.resourceUrl),
          (url) => presentSigned(url, terms, signed),
          { concurrency: "unbounded" }
        )
        for (const a of answers) {
          // The others met it in flight: being forwarded (409), or its answer kept while it settles (503).
          if (a.status === 200) assert.deepInclude(a.body, { answer: 42, call: before + 1 })
          else if (a.status === 409) assert.deepInclude(a.body, { ok: false, code: "CONFLICT", reason: "payment_in_flight" })
          else {
            assert.strictEqual(a.status, 503, JSON.stringify(a.body))
            assert.deepInclude(a.body, { ok: false, code: "UNAVAILABLE", reason: "settlement_pending: the answer is kept until the payment settles" })
          }
        }
        assert.isAtLeast(answers.filter((a) => a.status === 200).length, 1, JSON.stringify(answers))
        assert.strictEqual(upstream.calls.length, before + 1, "one forward")
        const executed = yield* Effect.promise(() => ledger.client.core.getTransaction({ digest: signed.digest }).then(() => true, () => false))
        assert.isTrue(executed, "executed once: its digest is on chain")
      }))

    it.effect("20 concurrent retries of one paid-call credential across two replicas make exactly one forward", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const upstream = yield* Upstream
        const clients = [yield* makeApiClient(yield* ReplicaA), yield* makeApiClient(yield* ReplicaB)] as const
        // Payments become final while the agent waits, as on a ledger that checkpoints by itself.
        yield* Effect.forkScoped(Effect.forever(Effect.delay(ledger.checkpoint, "20 millis")))
        const { entry } = yield* liveService(clients[0], { price: 40n, upstreamUrl: upstream.url })
        const { owner, asOwner } = yield* fundedOwner(clients[0])
        const { agentKey, manifest } = yield* grantedAgent(clients[0], owner, asOwner, { key: "replica-pay", budget: 1000n, perPayment: 100n })
        upstream.failing = true
        const failed = yield* makeAgent({ manifest, signer: agentKey, client: ledger.client, payment: "upfront" }).fetchPaid(entry.resourceUrl)
        assert.strictEqual(failed.response.status, 503)
        upstream.failing = false
        const before = upstream.calls.length
        const urls = [entry.resourceUrl, entry.resourceUrl.replace(yield* ReplicaA, yield* ReplicaB)]
        const present = (url: string) =>
          Effect.promise(() =>
            fetch(url, { headers: { "payment-signature": failed.credential ?? "" } }).then(async (r) => ({ status: r.status, body: await r.json() }))
          )
        const answers = yield* Effect.forEach(Array.from({ length: 20 }, (_, i) => urls[i % 2] ?? entry.resourceUrl), present, { concurrency: "unbounded" })
        // One retry forwards; the others either met it in flight or got its kept answer, never a second forward.
        const forwarded = { answer: 42, call: before + 1 }
        for (const a of answers) {
          if (a.status === 200) assert.deepStrictEqual(a.body, forwarded)
          else assert.deepInclude(a, { status: 409, body: { ok: false, code: "CONFLICT", message: "This payment is being used by another request", reason: "payment_in_flight" } })
        }
        assert.isAtLeast(answers.filter((a) => a.status === 200).length, 1, JSON.stringify(answers))
        assert.strictEqual(upstream.calls.length, before + 1)
        // Settled: at either replica, the same credential is the kept answer, and the seller is not called again.
        for (const url of urls) assert.deepStrictEqual(yield* present(url), { status: 200, body: forwarded })
        assert.strictEqual(upstream.calls.length, before + 1)
      }))

    it.effect("20 concurrent creates with one idempotency key across two replicas make exactly one signer", () =>
      Effect.gen(function*() {
        const clients = [yield* makeApiClient(yield* ReplicaA), yield* makeApiClient(yield* ReplicaB)] as const
        const { asOwner } = yield* fundedOwner(clients[0])
        const agent = new Ed25519Keypair().toSuiAddress()
        const responses = yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => clients[i % 2] ?? clients[0]),
          (client) => client.delegatedSigners.create(createRequest(agent, "same-key")).pipe(asOwner),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(new Set(responses.map((r) => r.delegatedSignerId)).size, 1)
        assert.strictEqual(responses.filter((r) => !r.idempotentReplay).length, 1)
        const first = responses[0]
        if (first === undefined) return assert.fail("no response")
        for (const r of responses) assert.deepStrictEqual({ ...r, idempotentReplay: false }, { ...first, idempotentReplay: false })
        const listed = yield* clients[1].delegatedSigners.list({ query: {} }).pipe(asOwner)
        assert.strictEqual(listed.delegatedSigners.length, 1)

        yield* failsWith(clients[0].delegatedSigners.create(createRequest(agent, "same-key", 999n)).pipe(asOwner), "CONFLICT")
      }))

    it.effect("20 concurrent finalizes of one grant across two replicas make one transition", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const clients = [yield* makeApiClient(yield* ReplicaA), yield* makeApiClient(yield* ReplicaB)] as const
        const { owner, asOwner } = yield* fundedOwner(clients[0])
        const created = yield* clients[0].delegatedSigners.create(createRequest(new Ed25519Keypair().toSuiAddress(), "race")).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant")
        const digest = yield* ledger.execute(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        const results = yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => clients[i % 2] ?? clients[0]),
          (client) =>
            client.delegatedSigners.finalizeCreate({
              params: { id: created.delegatedSignerId, grantId: grant.grantId },
              payload: { digest }
            }).pipe(asOwner),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(results.filter((r) => !r.alreadyFinalized).length, 1)
        assert.isTrue(results.every((r) => r.status === "active" && r.grantObjectId === results[0]?.grantObjectId))
      }))

    it.effect("20 concurrent activations of one draft across two replicas make one live revision", () =>
      Effect.gen(function*() {
        const clients = [yield* makeApiClient(yield* ReplicaA), yield* makeApiClient(yield* ReplicaB)] as const
        const seller = withOwner((yield* signIn(clients[0], new Ed25519Keypair())).authorization)
        const { service } = yield* clients[0].sellers.register({
          payload: {
            name: "Raced",
            description: "activated twenty times at once",
            method: "GET",
            path: "/raced",
            price: amount(5n),
            asset: SUI,
            decimals: 9,
            payTo: SuiAddress.make(new Ed25519Keypair().toSuiAddress()),
            upstreamUrl: "http://127.0.0.1:9/raced"
          }
        }).pipe(seller)
        const results = yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => clients[i % 2] ?? clients[0]),
          (client) => Effect.result(client.sellers.activate({ params: { id: service.id } }).pipe(seller)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(results.filter((r) => r._tag === "Success").length, 1)
        assert.isTrue(results.every((r) => r._tag === "Success" || (isApiError(r.failure) && r.failure.code === "CONFLICT")))
        assert.strictEqual((yield* clients[1].services.get({ params: { id: service.id } })).activeRevision, 1)
      }))

    it.effect("a chain outage mid-finalize leaves the grant pending, and the retry succeeds", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const local = yield* LocalLedger
        const client = yield* makeApiClient(yield* ReplicaA)
        const { owner, asOwner } = yield* fundedOwner(client)
        const created = yield* client.delegatedSigners.create(createRequest(new Ed25519Keypair().toSuiAddress(), "outage")).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant")
        const digest = yield* ledger.execute(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        const params = { id: created.delegatedSignerId, grantId: grant.grantId }

        yield* local.setFaults({ unavailable: true })
        yield* failsWith(client.delegatedSigners.finalizeCreate({ params, payload: { digest } }).pipe(asOwner), "UNAVAILABLE")
        yield* local.setFaults({ unavailable: false })
        const before = yield* client.delegatedSigners.get({ params: { id: created.delegatedSignerId } }).pipe(asOwner)
        assert.strictEqual(before.delegatedSigner.grants[0]?.status, "pending")
        assert.strictEqual(before.delegatedSigner.status, "awaiting_owner_signature")

        const retried = yield* client.delegatedSigners.finalizeCreate({ params, payload: { digest } }).pipe(asOwner)
        assert.strictEqual(retried.status, "active")
        assert.strictEqual(retried.alreadyFinalized, false)
      }))
  })
})
