import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { type Duration, Effect } from "effect"
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import * as Kinds from "@gateway/chain/build/Kinds"
import { Chain } from "@gateway/chain/Chain"
import { LocalLedger } from "@gateway/chain/local/LocalLedger"
import { localLedgerAccess } from "@gateway/chain/local/LocalLedgerAccess"
import { makeApiClient } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { executeKind } from "@gateway/client/OwnerWallet"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { ServiceId } from "@gateway/domain/Ids"
import { memoOf } from "@gateway/domain/verify/PaymentVerifier"
import { fundedOwner, grantedAgent, liveService, paidCallEnv, SUI } from "./Scenario.ts"
import { TestLedger } from "./TestLedger.ts"
import { BaseUrl } from "./TestServer.ts"
import { Upstream } from "./Upstream.ts"

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
    const { agentKey, manifest } = yield* grantedAgent(client, owner, asOwner, {
      key: `refusal-${entry.id}`,
      budget: 1000n,
      perPayment: 100n,
      policyIds,
      ...(options.expiresAt === undefined ? {} : { expiresAt: options.expiresAt })
    })
    return { entry, manifest, agentKey, owner, upstream }
  })

/** Pays a fresh challenge by hand, bypassing the SDK's checks, and presents the credential. */
const payByHand = (input: {
  readonly url: string
  readonly agentKey: Ed25519Keypair
  readonly grant: { objectId: string; initialSharedVersion: bigint }
  readonly pool: { objectId: string; initialSharedVersion: bigint }
  readonly amount?: bigint
  readonly recipient?: string
  /** Time to let pass between receiving the challenge and paying it. */
  readonly wait?: Duration.Input
}) =>
  Effect.gen(function*() {
    const packageId = (yield* Chain).packageId
    const challenge = yield* Effect.promise(() => fetch(input.url).then((r) => r.headers.get("payment-required") ?? ""))
    const terms = decodePaymentRequiredHeader(challenge).accepts[0]
    if (terms === undefined) return yield* Effect.die("no terms")
    const nonce = String(terms.extra?.["nonce"])
    if (input.wait !== undefined) yield* Effect.sleep(input.wait)
    const kind = yield* Effect.promise(() =>
      Kinds.pay(packageId, {
        sender: input.agentKey.toSuiAddress(),
        grant: input.grant,
        pool: input.pool,
        coinType: SUI_COIN_TYPE,
        amount: input.amount ?? BigInt(terms.amount),
        recipient: input.recipient ?? terms.payTo,
        memo: memoOf(nonce)
      })
    )
    const executed = yield* executeKind(kind.txKindBytes, input.agentKey, yield* localLedgerAccess)
    yield* Effect.sleep("100 millis")
    const credential = encodePaymentSignatureHeader({ x402Version: 2, accepted: terms, payload: { digest: executed.digest } })
    return yield* Effect.promise(() =>
      fetch(input.url, { headers: { "payment-signature": credential } }).then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> }))
    )
  })

const refs = (manifest: { grants: ReadonlyArray<{ grantObjectId: string; grantInitialSharedVersion: string; pool: string; poolInitialSharedVersion: string }> }) => {
  const g = manifest.grants[0]
  if (g === undefined) throw new Error("no grant in the manifest")
  return {
    grant: { objectId: g.grantObjectId, initialSharedVersion: BigInt(g.grantInitialSharedVersion) },
    pool: { objectId: g.pool, initialSharedVersion: BigInt(g.poolInitialSharedVersion) }
  }
}

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
        const wrongRecipient = yield* payByHand({ url: entry.resourceUrl, agentKey, ...refs(manifest), recipient: new Ed25519Keypair().toSuiAddress() })
        assert.strictEqual(wrongRecipient.body.code, "UNVERIFIED")
        assert.match(String(wrongRecipient.body.reason), /^recipient: /)
        assert.strictEqual(upstream.calls.length, calls)
      }))

    it.effect("the owner's policy is enforced by the SDK before paying and by the gateway before forwarding", () =>
      Effect.gen(function*() {
        const { entry, manifest, agentKey, upstream } = yield* setup({ policyService: "svc_0000000000000000000000000q" })
        const agent = makeAgent({ manifest, signer: agentKey, ledger: yield* localLedgerAccess })
        const refused = yield* Effect.flip(agent.fetchPaid(entry.resourceUrl))
        assert.match(refused._tag === "PaymentRefused" ? refused.reason : "", /^policy: /)
        const calls = upstream.calls.length
        const byHand = yield* payByHand({ url: entry.resourceUrl, agentKey, ...refs(manifest) })
        assert.strictEqual(byHand.body.code, "UNVERIFIED")
        assert.match(String(byHand.body.reason), /^policy: /)
        assert.strictEqual(upstream.calls.length, calls)
      }))

    it.effect("a grant this gateway did not provision cannot pay for its services", () =>
      Effect.gen(function*() {
        const { entry } = yield* setup()
        const chain = yield* Chain
        const ledger = yield* TestLedger
        const stranger = new Ed25519Keypair()
        const agentKey = new Ed25519Keypair()
        yield* ledger.fundPool(stranger, SUI, 10_000n)
        yield* (yield* LocalLedger).mint(agentKey.toSuiAddress(), SUI_COIN_TYPE, 10_000_000_000n)
        const pool = yield* chain.findPool(stranger.toSuiAddress(), SUI)
        if (pool._tag === "None") return assert.fail("no pool")
        const created = yield* ledger.execute((yield* chain.buildCreateGrant({
          sender: stranger.toSuiAddress(), pool: pool.value, delegate: agentKey.toSuiAddress(), sessionCap: 1000n, maxPerPayment: 100n, expiryMs: 0n, policyIds: []
        })).txKindBytes, stranger)
        yield* ledger.checkpoint
        const event = (yield* (yield* LocalLedger).getTransaction(created)).events[0]
        const grantId = (event?.parsedJson as { grant_id: string }).grant_id
        const response = yield* payByHand({
          url: entry.resourceUrl,
          agentKey,
          grant: { objectId: grantId, initialSharedVersion: yield* chain.sharedVersion(grantId) },
          pool: { objectId: pool.value.poolId, initialSharedVersion: pool.value.initialSharedVersion }
        })
        assert.strictEqual(response.body.code, "UNVERIFIED")
        assert.match(String(response.body.reason), /^grant: /)
      }))

    it.effect("an expired grant cannot pay: the chain refuses and the SDK says so", () =>
      Effect.gen(function*() {
        const { entry, manifest, agentKey } = yield* setup({ expiresAt: Date.now() + 1500 })
        yield* Effect.sleep("1600 millis")
        const agent = makeAgent({ manifest, signer: agentKey, ledger: yield* localLedgerAccess })
        const refused = yield* Effect.flip(agent.fetchPaid(entry.resourceUrl))
        assert.match(refused._tag === "PaymentRefused" ? refused.reason : "", /EExpired/)
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
      }))
  })
})
