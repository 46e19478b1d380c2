import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Kinds from "@gateway/chain/transactions/Kinds"
import { makeApiClient } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { WindowKind } from "@gateway/domain/chain/GrantWindow"
import { Events, poolIdOf } from "@gateway/domain/chain/SpendAccountModule"
import { ServiceId } from "@gateway/domain/Ids"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { challengeOf, pay, payByHand, present, refs } from "../support/PayByHand.ts"
import { amount, fundedOwner, grantedAgent, liveService, paidCallEnv, SUI } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"

const Env = paidCallEnv()

/** A live 40-MIST service and, for a fresh agent, a finalized grant with the given policy and expiry. */
const setup = (options: { policyService?: string; expiresAt?: number } = {}) =>
  Effect.gen(function*() {
    const baseUrl = yield* BaseUrl
    const upstream = yield* Upstream
    const client = yield* makeApiClient(baseUrl)
    const { owner, asOwner } = yield* fundedOwner(client)
    const { entry } = yield* liveService(client, { price: 40n, upstreamUrl: upstream.url })
    const policyIds = options.policyService === undefined ? [] : [
      (yield* client.policies.createPolicy({
        payload: { name: "only one service", rule: { serviceIds: [ServiceId.make(options.policyService)], methods: [], paths: [], recipients: [], assets: [] } }
      }).pipe(asOwner)).id
    ]
    const { agentKey, manifest, signerId } = yield* grantedAgent(client, owner, asOwner, {
      key: `refusal-${entry.id}`,
      budget: 1000n,
      perPayment: 100n,
      policyIds,
      ...(options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt })
    })
    return { entry, manifest, agentKey, owner, asOwner, client, signerId, upstream }
  })

describe("paid-call refusals", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("a payment of the wrong amount or to the wrong recipient is UNVERIFIED and forwards nothing", () =>
      Effect.gen(function*() {
        const { entry, manifest, agentKey, upstream } = yield* setup()
        const calls = upstream.calls.length
        const wrongAmount = yield* payByHand({ url: entry.resourceUrl, agentKey, ...refs(manifest), amount: 39n })
        assert.strictEqual(wrongAmount.status, 502)
        assert.strictEqual(wrongAmount.body.code, "UNVERIFIED")
        assert.match(String(wrongAmount.body.reason), /^amount: /)
        // The money moved all the same: the error says how much went where, and what to do.
        const underpaid = String(wrongAmount.body.message)
        assert.include(underpaid, `paid 39 atomic units from grant ${manifest.grants[0]?.grantObjectId} to ${entry.payTo}`)
        assert.include(underpaid, "that money has moved")
        assert.include(underpaid, "only the recipient can")
        assert.include(underpaid, "Pay a fresh challenge with its exact amount")
        const stranger = new Ed25519Keypair().toSuiAddress()
        const wrongRecipient = yield* payByHand({ url: entry.resourceUrl, agentKey, ...refs(manifest), recipient: stranger })
        assert.strictEqual(wrongRecipient.body.code, "UNVERIFIED")
        assert.match(String(wrongRecipient.body.reason), /^recipient: /)
        assert.include(String(wrongRecipient.body.message), `to ${stranger}: that money has moved`)
        assert.strictEqual(upstream.calls.length, calls)
      }))

    it.effect("the owner's policy is enforced by the SDK before paying and by the gateway before forwarding", () =>
      Effect.gen(function*() {
        const { entry, manifest, agentKey, upstream } = yield* setup({ policyService: "svc_0000000000000000000000000q" })
        const agent = makeAgent({ manifest, signer: agentKey, client: (yield* TestLedger).client })
        const refused = yield* Effect.flip(agent.fetchPaid(entry.resourceUrl))
        assert.match(refused._tag === "PaymentRefused" ? refused.reason : "", /^policy: /)
        const calls = upstream.calls.length
        const byHand = yield* payByHand({ url: entry.resourceUrl, agentKey, ...refs(manifest) })
        assert.strictEqual(byHand.body.code, "UNVERIFIED")
        assert.match(String(byHand.body.reason), /^policy: /)
        assert.include(String(byHand.body.message), "Its money has moved to the recipient and is recorded as refused in the owner's payments")
        assert.include(String(byHand.body.message), "Ask the owner to allow this service")
        // The refused payment is on record: presenting it again is refused without another look at the chain.
        const again = yield* present(entry.resourceUrl, byHand.terms, byHand.digest, { signer: agentKey })
        assert.strictEqual(again.status, 402)
        assert.strictEqual(again.body.reason, "payment_refused_policy")
        assert.strictEqual(upstream.calls.length, calls)
      }))

    it.effect("a digest replayed on a fresh challenge forwards nothing; a second payment of one challenge is a second call", () =>
      Effect.gen(function*() {
        const { entry, manifest, agentKey, upstream } = yield* setup()
        const first = yield* payByHand({ url: entry.resourceUrl, agentKey, ...refs(manifest) })
        assert.strictEqual(first.status, 200)
        const calls = upstream.calls.length
        const fresh = yield* challengeOf(entry.resourceUrl)
        const replayed = yield* present(entry.resourceUrl, fresh.terms, first.digest, { signer: agentKey })
        assert.strictEqual(replayed.status, 402)
        assert.strictEqual(replayed.body.reason, "payment_for_another_challenge")
        assert.strictEqual(upstream.calls.length, calls)
        // A challenge is a price quote, not a ticket: another payment of it, within its terms, is served once more.
        const secondDigest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce: first.nonce })
        const second = yield* present(entry.resourceUrl, first.terms, secondDigest, { signer: agentKey })
        assert.strictEqual(second.status, 200)
        assert.strictEqual(upstream.calls.length, calls + 1)
      }))

    it.effect("a payment from a grant in another asset is UNVERIFIED, even at the right amount", () =>
      Effect.gen(function*() {
        const { entry, upstream } = yield* setup()
        const ledger = yield* TestLedger
        const client = yield* makeApiClient(yield* BaseUrl)
        const cheap = yield* ledger.newCoinType("CHEAP")
        const { owner, asOwner } = yield* fundedOwner(client)
        yield* ledger.fundPool(owner, cheap, 10_000n)
        const agentKey = new Ed25519Keypair()
        yield* ledger.gas(agentKey.toSuiAddress())
        const created = yield* client.delegatedSigners.create({
          headers: { "idempotency-key": `cheap-${entry.id}` },
          payload: {
            agentAddress: SuiAddress.make(agentKey.toSuiAddress()),
            assetScopes: [{ asset: cheap, totalBudgetAtomic: amount(1000n), maxPerPaymentAtomic: amount(100n) }]
          }
        }).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant")
        const digest = yield* ledger.execute(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        const bound = yield* client.delegatedSigners.finalizeCreate({ params: { id: created.delegatedSignerId, grantId: grant.grantId }, payload: { digest } })
          .pipe(asOwner)
        const calls = upstream.calls.length
        const response = yield* payByHand({
          url: entry.resourceUrl,
          agentKey,
          coinType: cheap,
          grant: yield* ledger.sharedRef(bound.grantObjectId ?? ""),
          pool: yield* ledger.sharedRef(grant.pool)
        })
        assert.strictEqual(response.status, 502)
        assert.strictEqual(response.body.code, "UNVERIFIED")
        assert.match(String(response.body.reason), /^asset: /)
        assert.include(String(response.body.message), "Its money has moved to the recipient")
        assert.include(String(response.body.message), `Pay a fresh challenge in ${entry.asset}`)
        assert.strictEqual(upstream.calls.length, calls)
      }))

    it.effect("a revoked grant cannot pay: the chain refuses and the SDK says so", () =>
      Effect.gen(function*() {
        const { entry, manifest, agentKey, owner, asOwner, client, signerId } = yield* setup()
        const ledger = yield* TestLedger
        const revoke = yield* client.delegatedSigners.revoke({ params: { id: signerId } }).pipe(asOwner)
        for (const kind of revoke.grants) {
          const digest = yield* ledger.execute(kind.txKindBytes, owner)
          yield* ledger.checkpoint
          yield* client.delegatedSigners.finalizeRevoke({ params: { id: signerId, grantId: kind.grantId }, payload: { digest } }).pipe(asOwner)
        }
        const agent = makeAgent({ manifest, signer: agentKey, client: ledger.client })
        const refused = yield* Effect.flip(agent.fetchPaid(entry.resourceUrl))
        assert.match(refused._tag === "PaymentRefused" ? refused.reason : "", /ERevoked/)
      }))

    it.effect("a grant this gateway did not provision cannot pay for its services", () =>
      Effect.gen(function*() {
        const { entry } = yield* setup()
        const ledger = yield* TestLedger
        const stranger = new Ed25519Keypair()
        const agentKey = new Ed25519Keypair()
        yield* ledger.fundPool(stranger, SUI, 10_000n)
        yield* ledger.gas(agentKey.toSuiAddress())
        // The stranger's own grant, made in a wallet without the gateway: its nonce is one the gateway never issued.
        const pool = yield* ledger.sharedRef(poolIdOf(ledger.pkg, stranger.toSuiAddress(), SUI))
        const registry = yield* ledger.sharedRef(ledger.pkg.registryId)
        const kind = yield* Effect.promise(() =>
          Kinds.createPolicyGrant(ledger.pkg, {
            sender: stranger.toSuiAddress(),
            registry,
            pool,
            coinType: SUI,
            grantId: "g_stranger",
            deadlineMs: BigInt(Date.now() + 60_000),
            delegate: agentKey.toSuiAddress(),
            sessionCap: 1000n,
            maxPerPayment: 100n,
            expiryMs: 0n,
            window: { kind: WindowKind.none },
            recipients: [],
            policyIds: []
          })
        )
        const created = yield* ledger.execute(kind.txKindBytes, stranger)
        yield* ledger.checkpoint
        const { Transaction: tx } = yield* Effect.promise(() => ledger.client.core.getTransaction({ digest: created, include: { events: true } }))
        const event = tx?.events.find((e) => e.eventType.endsWith("::GrantCreated"))
        if (event === undefined) return assert.fail("no GrantCreated")
        const response = yield* payByHand({
          url: entry.resourceUrl,
          agentKey,
          grant: yield* ledger.sharedRef(Events.GrantCreated.parse(event.bcs).grant_id),
          pool
        })
        assert.strictEqual(response.body.code, "UNVERIFIED")
        assert.match(String(response.body.reason), /^grant: /)
        assert.include(String(response.body.message), "Its money has moved to the recipient and is recorded as refused by this gateway")
        assert.include(String(response.body.message), "Pay from a grant created through this gateway")
      }))

    it.effect("an expired grant cannot pay: the SDK refuses it from the manifest before anything reaches the chain", () =>
      Effect.gen(function*() {
        // Room for the setup to finalize the grant while the machine is busy, then just past the expiry.
        const expiresAt = Date.now() + 3000
        const { entry, manifest, agentKey } = yield* setup({ expiresAt })
        yield* Effect.sleep(`${Math.max(0, expiresAt - Date.now()) + 100} millis`)
        const agent = makeAgent({ manifest, signer: agentKey, client: (yield* TestLedger).client })
        const refused = yield* Effect.flip(agent.fetchPaid(entry.resourceUrl))
        assert.match(refused._tag === "PaymentRefused" ? refused.reason : "", /^expiry: the grant for .* has expired$/)
        assert.isFalse(refused._tag === "PaymentRefused" && refused.digest !== undefined, "nothing was sent to the chain")
      }))
  })
})

describe("paid-call challenges expire", () => {
  const ShortChallenges = paidCallEnv({ paymentChallengeSeconds: 1 })
  layer(ShortChallenges, { excludeTestServices: true })((it) => {
    it.effect("a payment presented after its challenge expired gets a fresh 402 and forwards nothing", () =>
      Effect.gen(function*() {
        const { entry, manifest, agentKey, upstream } = yield* setup()
        const calls = upstream.calls.length
        const late = yield* payByHand({ url: entry.resourceUrl, agentKey, ...refs(manifest), wait: "1200 millis" })
        assert.strictEqual(late.status, 402)
        assert.strictEqual(late.body.reason, "challenge_expired")
        assert.strictEqual(upstream.calls.length, calls)
        // The late payment moved money: the 402 says how much, where, that it is recorded, and to pay the new challenge.
        const message = String(late.body.message)
        assert.include(message, `Payment ${late.digest} reached the chain after its challenge expired`)
        assert.include(message, `40 atomic units of ${entry.asset}`)
        assert.include(message, `to ${entry.payTo}`)
        assert.include(message, "recorded as refused in the owner's payments (reason challenge_expired)")
        assert.include(message, "Pay the fresh challenge in this response")
        // Presented again, it is refused as recorded, saying the same money cannot pay any call.
        const again = yield* present(entry.resourceUrl, late.terms, late.digest, { signer: agentKey })
        assert.strictEqual(again.body.reason, "payment_refused_challenge_expired")
        assert.include(String(again.body.message), "its money moved to the recipient")
      }))

    it.effect("a payment whose forward failed is retried with the same credential after its challenge expired", () =>
      Effect.gen(function*() {
        const { entry, manifest, agentKey, upstream } = yield* setup()
        upstream.failing = true
        const failed = yield* payByHand({ url: entry.resourceUrl, agentKey, ...refs(manifest) })
        assert.strictEqual(failed.status, 503)
        upstream.failing = false
        yield* Effect.sleep("1200 millis")
        const calls = upstream.calls.length
        const retried = yield* present(entry.resourceUrl, failed.terms, failed.digest, { signer: agentKey })
        assert.strictEqual(retried.status, 200)
        assert.strictEqual(upstream.calls.length, calls + 1)
      }))
  })
})
