import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchLayer, type GatewayClient, makeApiClient, type withOwner } from "@gateway/client"
import { AbortCode } from "@gateway/domain/chain/SpendAccountModule"
import type { ExpiresAtInput } from "@gateway/domain/ExpiresAt"
import { isApiError } from "@gateway/domain/Errors"
import { type DelegatedSignerId, type GrantId, PolicyId, ProfileId } from "@gateway/domain/Ids"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { SignerRepo } from "../../src/signers/SignerRepo.ts"
import { failsWith } from "../support/Assertions.ts"
import { amount, createRequest, fundedOwner, SUI } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"

const newAgent = () => SuiAddress.make(new Ed25519Keypair().toSuiAddress())

/** `createRequest` with the one scope's expiry set. */
const expiringRequest = (agent: string, key: string, expiresAt: ExpiresAtInput) => {
  const request = createRequest(agent, key)
  return {
    ...request,
    payload: { ...request.payload, assetScopes: request.payload.assetScopes.map((scope) => ({ ...scope, expiresAt })) }
  }
}

/** The code of a failed call, or `ok` with the grant it finalized. */
const outcome = (self: Effect.Effect<{ readonly grantId: GrantId; readonly alreadyFinalized: boolean }, unknown>) =>
  Effect.match(self, {
    onFailure: (error): { code: string; grantId?: GrantId; alreadyFinalized?: boolean } => ({
      code: isApiError(error) ? `${error.code}:${error.reason}` : String(error)
    }),
    onSuccess: (result) => ({ code: "ok", grantId: result.grantId, alreadyFinalized: result.alreadyFinalized })
  })

const Env = Layer.mergeAll(TestLedger.layer.pipe(Layer.provideMerge(layerTestServer())), FetchLayer)

describe("delegated signer rules", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    const setup = Effect.gen(function*() {
      const client = yield* makeApiClient(yield* BaseUrl)
      return { client, ...(yield* fundedOwner(client)) }
    })

    /** A signer over two assets (SUI and a fresh coin with its own funded pool), not yet finalized. */
    const twoAssetSigner = (coinName: string, key: string) =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { client, owner, asOwner } = yield* setup
        const coin = yield* ledger.newCoinType(coinName)
        yield* ledger.fundPool(owner, coin, 1_000_000n)
        const request = createRequest(newAgent(), key)
        const created = yield* client.delegatedSigners.create({
          ...request,
          payload: {
            ...request.payload,
            assetScopes: [...request.payload.assetScopes, { asset: coin, totalBudgetAtomic: amount(500n), maxPerPaymentAtomic: amount(50n) }]
          }
        }).pipe(asOwner)
        const [first, second] = created.grants
        if (first === undefined || second === undefined) return yield* Effect.die("two grants were not prepared")
        return { client, owner, asOwner, id: created.delegatedSignerId, first, second }
      })

    const signerOf = (client: GatewayClient, asOwner: ReturnType<typeof withOwner>, id: DelegatedSignerId) =>
      Effect.map(client.delegatedSigners.get({ params: { id } }).pipe(asOwner), ({ delegatedSigner }) => delegatedSigner)

    it.effect("an idempotency key in header and body that disagree is INVALID, and so is none at all; nothing is written", () =>
      Effect.gen(function*() {
        const { client, asOwner } = yield* setup
        const request = createRequest(newAgent(), "header-key")
        const disagree = yield* failsWith(
          client.delegatedSigners.create({ ...request, payload: { ...request.payload, idempotencyKey: "body-key" } }).pipe(asOwner),
          "INVALID"
        )
        assert.match(disagree.reason, /^headers\.idempotency-key: /)
        const missing = yield* failsWith(client.delegatedSigners.create({ headers: {}, payload: request.payload }).pipe(asOwner), "INVALID")
        assert.match(missing.reason, /^body\.idempotencyKey: /)
        assert.strictEqual((yield* client.delegatedSigners.list({ query: {} }).pipe(asOwner)).delegatedSigners.length, 0)
      }))

    it.effect("two scopes naming one coin type, however it is written, are INVALID", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const { client, asOwner, session } = yield* setup
        const scope = { asset: SUI, totalBudgetAtomic: "10", maxPerPaymentAtomic: "1" }
        // Sent as raw JSON: the typed client would refuse the body before it reaches the server.
        const response = yield* Effect.promise(() =>
          fetch(`${baseUrl}/v1/delegated-signers`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: session.authorization, "idempotency-key": "duplicate-assets" },
            body: JSON.stringify({ agentAddress: newAgent(), assetScopes: [scope, { ...scope, asset: `0x${"0".repeat(63)}2::sui::SUI` }] })
          }).then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> })))
        assert.strictEqual(response.status, 400)
        assert.strictEqual(response.body.code, "INVALID")
        assert.match(String(response.body.reason), /assetScopes\.1\.asset: duplicate asset/)
        assert.strictEqual((yield* client.delegatedSigners.list({ query: {} }).pipe(asOwner)).delegatedSigners.length, 0)
      }))

    it.effect("an expiresAt in the past is INVALID, as an epoch or as ISO-8601", () =>
      Effect.gen(function*() {
        const { client, asOwner } = yield* setup
        for (const [i, expiresAt] of [Date.now() - 60_000, new Date(Date.now() - 60_000).toISOString()].entries()) {
          const refused = yield* failsWith(client.delegatedSigners.create(expiringRequest(newAgent(), `past-${i}`, expiresAt)).pipe(asOwner), "INVALID")
          assert.strictEqual(refused.reason, "body.assetScopes.0.expiresAt: must be in the future")
        }
      }))

    it.effect("unknown policyIds and profileIds are INVALID, and so are another owner's", () =>
      Effect.gen(function*() {
        const { client, asOwner } = yield* setup
        const stranger = yield* fundedOwner(client)
        const rule = { serviceIds: [], methods: [], paths: [], recipients: [], assets: [] }
        const theirs = yield* client.policies.createPolicy({ payload: { name: "theirs", rule } }).pipe(stranger.asOwner)
        const theirProfile = yield* client.policies.createProfile({ payload: { name: "theirs", policyIds: [theirs.id] } }).pipe(stranger.asOwner)
        const request = createRequest(newAgent(), "unknown-ids")
        const cases = [
          [{ policyIds: [PolicyId.make(`pol_${"0".repeat(26)}`)] }, /^body\.policyIds\.0: unknown id/],
          [{ policyIds: [theirs.id] }, /^body\.policyIds\.0: unknown id/],
          [{ profileIds: [ProfileId.make(`prof_${"0".repeat(26)}`)] }, /^body\.profileIds\.0: unknown id/],
          [{ profileIds: [theirProfile.id] }, /^body\.profileIds\.0: unknown id/]
        ] as const
        for (const [ids, reason] of cases) {
          const refused = yield* failsWith(client.delegatedSigners.create({ ...request, payload: { ...request.payload, ...ids } }).pipe(asOwner), "INVALID")
          assert.match(refused.reason, reason)
        }
        assert.strictEqual((yield* client.delegatedSigners.list({ query: {} }).pipe(asOwner)).delegatedSigners.length, 0)
      }))

    it.effect("another owner's signer is NOT_FOUND on every route, and their recorded digest is judged by the chain, not the store", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { client, owner, asOwner } = yield* setup
        const stranger = yield* fundedOwner(client)
        const created = yield* client.delegatedSigners.create(createRequest(newAgent(), "mine")).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant")
        const digest = yield* ledger.execute(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        const params = { id: created.delegatedSignerId, grantId: grant.grantId }
        yield* client.delegatedSigners.finalizeCreate({ params, payload: { digest } }).pipe(asOwner)

        const signerParams = { params: { id: created.delegatedSignerId } }
        yield* failsWith(client.delegatedSigners.get(signerParams).pipe(stranger.asOwner), "NOT_FOUND")
        yield* failsWith(client.delegatedSigners.manifest(signerParams).pipe(stranger.asOwner), "NOT_FOUND")
        yield* failsWith(client.delegatedSigners.revoke(signerParams).pipe(stranger.asOwner), "NOT_FOUND")
        yield* failsWith(client.delegatedSigners.preparePause(signerParams).pipe(stranger.asOwner), "NOT_FOUND")
        yield* failsWith(client.delegatedSigners.prepareResume(signerParams).pipe(stranger.asOwner), "NOT_FOUND")
        for (const step of ["finalizeCreate", "finalizeRevoke", "finalizePause", "finalizeResume"] as const) {
          yield* failsWith(client.delegatedSigners[step]({ params, payload: { digest } }).pipe(stranger.asOwner), "NOT_FOUND")
        }
        assert.strictEqual((yield* client.delegatedSigners.list({ query: {} }).pipe(stranger.asOwner)).delegatedSigners.length, 0)

        // The stranger's own grant, finalized with the digest recorded for ours: verification refuses it, no CONFLICT tells it exists.
        const theirs = yield* client.delegatedSigners.create(createRequest(newAgent(), "theirs")).pipe(stranger.asOwner)
        const theirGrant = theirs.grants[0]
        if (theirGrant === undefined) return assert.fail("no grant")
        yield* failsWith(
          client.delegatedSigners.finalizeCreate({ params: { id: theirs.delegatedSignerId, grantId: theirGrant.grantId }, payload: { digest } })
            .pipe(stranger.asOwner),
          "FOREIGN_DIGEST"
        )
        const mine = yield* signerOf(client, asOwner, created.delegatedSignerId)
        assert.strictEqual(mine.status, "active")
      }))

    it.effect("lists newest first and pages with the cursor", () =>
      Effect.gen(function*() {
        const { client, asOwner } = yield* setup
        const ids: Array<string> = []
        for (const key of ["page-1", "page-2", "page-3"]) {
          ids.push((yield* client.delegatedSigners.create(createRequest(newAgent(), key)).pipe(asOwner)).delegatedSignerId)
        }
        const first = yield* client.delegatedSigners.list({ query: { limit: 2 } }).pipe(asOwner)
        assert.deepStrictEqual(first.delegatedSigners.map((s) => s.id), [ids[2], ids[1]])
        if (first.nextCursor === null) return assert.fail("a second page")
        const second = yield* client.delegatedSigners.list({ query: { limit: 2, cursor: first.nextCursor } }).pipe(asOwner)
        assert.deepStrictEqual(second.delegatedSigners.map((s) => s.id), [ids[0]])
        assert.isNull(second.nextCursor)
        const all = yield* client.delegatedSigners.list({ query: {} }).pipe(asOwner)
        assert.deepStrictEqual(all.delegatedSigners.map((s) => s.id), [...ids].reverse())
        assert.isNull(all.nextCursor)
        yield* failsWith(client.delegatedSigners.list({ query: { cursor: "not-a-cursor" } }).pipe(asOwner), "INVALID")
      }))

    it.effect("a create kind executes once: run again it fails on chain, and the grant stays as the first run made it", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { client, owner, asOwner } = yield* setup
        const agent = newAgent()
        const a = yield* client.delegatedSigners.create(createRequest(agent, "twin-a")).pipe(asOwner)
        const b = yield* client.delegatedSigners.create(createRequest(agent, "twin-b")).pipe(asOwner)
        const [grantA, grantB] = [a.grants[0], b.grants[0]]
        if (grantA === undefined || grantB === undefined) return assert.fail("two grants")
        const first = yield* ledger.execute(grantA.txKindBytes, owner)
        const second = yield* ledger.executeAsIs(grantA.txKindBytes, owner)
        yield* ledger.checkpoint
        const paramsA = { id: a.delegatedSignerId, grantId: grantA.grantId }
        const done = yield* client.delegatedSigners.finalizeCreate({ params: paramsA, payload: { digest: first } }).pipe(asOwner)
        assert.strictEqual(done.status, "active")
        // The pool remembers the grant's nonce: the second run aborted, so no second Grant went live.
        const again = yield* failsWith(client.delegatedSigners.finalizeCreate({ params: paramsA, payload: { digest: second } }).pipe(asOwner), "TX_FAILED")
        assert.include(again.reason, `abort code: ${AbortCode.ENonceUsed}`)
        assert.deepStrictEqual((yield* signerOf(client, asOwner, a.delegatedSignerId)).grants.map((g) => [g.status, g.grantObjectId]), [["active", done.grantObjectId]])
        // Alike in every cap, the other signer's grant still has a nonce of its own: A's create is not B's.
        const paramsB = { id: b.delegatedSignerId, grantId: grantB.grantId }
        const reused = yield* failsWith(client.delegatedSigners.finalizeCreate({ params: paramsB, payload: { digest: first } }).pipe(asOwner), "CONFLICT")
        assert.strictEqual(reused.reason, "digest_already_used_by_another_grant")
        const revokeWithCreate = yield* failsWith(client.delegatedSigners.finalizeRevoke({ params: paramsA, payload: { digest: first } }).pipe(asOwner), "CONFLICT")
        assert.strictEqual(revokeWithCreate.reason, "digest_already_used_for_another_change")
        assert.strictEqual((yield* signerOf(client, asOwner, b.delegatedSignerId)).grants[0]?.status, "pending")
      }))

    it.effect("one digest finalized on two grants at once moves only its own grant; every other answer is the winner's, UNVERIFIED or CONFLICT", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { client, owner, asOwner } = yield* setup
        const agent = newAgent()
        const twins = [
          yield* client.delegatedSigners.create(createRequest(agent, "race-a")).pipe(asOwner),
          yield* client.delegatedSigners.create(createRequest(agent, "race-b")).pipe(asOwner)
        ]
        const [grantA] = twins[0]?.grants ?? []
        if (grantA === undefined) return assert.fail("no grant")
        const digest = yield* ledger.execute(grantA.txKindBytes, owner)
        yield* ledger.checkpoint
        const results = yield* Effect.forEach(
          Array.from({ length: 16 }, (_, i) => twins[i % 2]),
          (signer) => {
            const grant = signer?.grants[0]
            if (signer === undefined || grant === undefined) return Effect.die("no grant")
            return outcome(client.delegatedSigners.finalizeCreate({
              params: { id: signer.delegatedSignerId, grantId: grant.grantId },
              payload: { digest }
            }).pipe(asOwner))
          },
          { concurrency: "unbounded" }
        )
        const moved = results.filter((r) => r.code === "ok" && r.alreadyFinalized === false)
        assert.strictEqual(moved.length, 1, JSON.stringify(results))
        assert.strictEqual(moved[0]?.grantId, grantA.grantId)
        for (const r of results) {
          // The twin's grant has a nonce of its own, so A's create never verifies for it.
          if (r.code === "ok") assert.strictEqual(r.grantId, grantA.grantId)
          else assert.isTrue(r.code === "CONFLICT:digest_already_used_by_another_grant" || r.code.startsWith("UNVERIFIED:"), r.code)
        }
        const statuses = yield* Effect.forEach(twins, (s) => Effect.map(signerOf(client, asOwner, s.delegatedSignerId), (v) => v.grants[0]?.status))
        assert.deepStrictEqual([...statuses].sort(), ["active", "pending"])
      }))

    it.effect("concurrent pause and revoke prepares: each either moved its grant or is CONFLICT, and the state is one of theirs", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { client, owner, asOwner } = yield* setup
        const created = yield* client.delegatedSigners.create(createRequest(newAgent(), "prepare-race")).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant")
        const digest = yield* ledger.execute(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        const id = created.delegatedSignerId
        yield* client.delegatedSigners.finalizeCreate({ params: { id, grantId: grant.grantId }, payload: { digest } }).pipe(asOwner)
        const results = yield* Effect.forEach(
          Array.from({ length: 12 }, (_, i) => i),
          (i) =>
            Effect.result(
              (i % 2 === 0 ? client.delegatedSigners.preparePause({ params: { id } }) : client.delegatedSigners.revoke({ params: { id } })).pipe(asOwner)
            ),
          { concurrency: "unbounded" }
        )
        assert.isAtLeast(results.filter((r) => r._tag === "Success").length, 1)
        for (const r of results) {
          if (r._tag === "Failure") assert.strictEqual(isApiError(r.failure) ? r.failure.code : String(r.failure), "CONFLICT")
          else assert.deepStrictEqual(r.success.grants.map((g) => g.grantId), [grant.grantId])
        }
        const revokes = results.filter((r, i) => i % 2 === 1 && r._tag === "Success")
        const after = yield* signerOf(client, asOwner, id)
        assert.strictEqual(after.grants[0]?.status, revokes.length > 0 ? "revoking" : "pausing")
        // Whichever won, the signer can still be revoked, and the kind handed out then verifies.
        const revoke = yield* client.delegatedSigners.revoke({ params: { id } }).pipe(asOwner)
        const kind = revoke.grants[0]
        if (kind === undefined) return assert.fail("a revoke kind")
        const revoked = yield* ledger.execute(kind.txKindBytes, owner)
        yield* ledger.checkpoint
        const done = yield* client.delegatedSigners.finalizeRevoke({ params: { id, grantId: grant.grantId }, payload: { digest: revoked } }).pipe(asOwner)
        assert.strictEqual(done.signerStatus, "revoked")
      }))

    it.effect("an owner's pause never hides a grant able to pay: a create finalized after it reads partially_active and the next pause takes it", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { client, owner, asOwner, id, first, second } = yield* twoAssetSigner("LATE", "pause-then-create")
        const finalizeWith = (txKindBytes: string, grantId: GrantId, finalize: "finalizeCreate" | "finalizePause") =>
          Effect.gen(function*() {
            const digest = yield* ledger.execute(txKindBytes, owner)
            yield* ledger.checkpoint
            return yield* client.delegatedSigners[finalize]({ params: { id, grantId }, payload: { digest } }).pipe(asOwner)
          })
        yield* finalizeWith(first.txKindBytes, first.grantId, "finalizeCreate")
        const pause = yield* client.delegatedSigners.preparePause({ params: { id } }).pipe(asOwner)
        assert.deepStrictEqual(pause.grants.map((g) => g.grantId), [first.grantId])
        const [pauseKind] = pause.grants
        if (pauseKind === undefined) return assert.fail("a pause kind")
        // Nothing can pay: the other grant awaits its owner's signature.
        assert.strictEqual((yield* finalizeWith(pauseKind.txKindBytes, first.grantId, "finalizePause")).signerStatus, "paused")

        const late = yield* finalizeWith(second.txKindBytes, second.grantId, "finalizeCreate")
        assert.deepStrictEqual({ status: late.status, signerStatus: late.signerStatus }, { status: "active", signerStatus: "partially_active" })
        assert.strictEqual((yield* signerOf(client, asOwner, id)).status, "partially_active")
        const again = yield* client.delegatedSigners.preparePause({ params: { id } }).pipe(asOwner)
        assert.deepStrictEqual(again.grants.map((g) => g.grantId), [second.grantId])
      }))

    it.effect("a replayed create answers the prepared kinds with the signer's current status", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { client, owner, asOwner } = yield* setup
        const request = createRequest(newAgent(), "replay-after-activation")
        const created = yield* client.delegatedSigners.create(request).pipe(asOwner)
        const before = yield* client.delegatedSigners.create(request).pipe(asOwner)
        assert.deepStrictEqual(before, { ...created, idempotentReplay: true })
        const [grant] = created.grants
        if (grant === undefined) return assert.fail("a grant")
        const digest = yield* ledger.execute(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        yield* client.delegatedSigners.finalizeCreate({ params: { id: created.delegatedSignerId, grantId: grant.grantId }, payload: { digest } })
          .pipe(asOwner)
        const after = yield* client.delegatedSigners.create(request).pipe(asOwner)
        assert.deepStrictEqual(after, { ...created, status: "active", idempotentReplay: true })
      }))

    it.effect("a prepare step moves grants only from the status it read: one stale grant and nothing is written", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        // The server's own repository over the same store, to play a request that read before another moved a grant.
        const repo = yield* Effect.provide(Effect.gen(function*() {
          return yield* SignerRepo
        }), SignerRepo.layer)
        const { client, owner, asOwner, id, first, second } = yield* twoAssetSigner("STALE", "stale-read")
        const digest = yield* ledger.execute(first.txKindBytes, owner)
        yield* ledger.checkpoint
        yield* client.delegatedSigners.finalizeCreate({ params: { id, grantId: first.grantId }, payload: { digest } }).pipe(asOwner)

        const step = (secondReadAs: "pending" | "active") =>
          repo.setStatuses({
            owner: SuiAddress.make(owner.toSuiAddress()),
            signerId: id,
            changes: [
              { grantId: first.grantId, from: "active", to: "revoking" },
              { grantId: second.grantId, from: secondReadAs, to: "failed" }
            ],
            now: new Date()
          })
        assert.isFalse(yield* step("active"))
        assert.deepStrictEqual((yield* signerOf(client, asOwner, id)).grants.map((g) => g.status), ["active", "pending"])
        assert.isTrue(yield* step("pending"))
        assert.deepStrictEqual((yield* signerOf(client, asOwner, id)).grants.map((g) => g.status), ["revoking", "failed"])
      }))

    it.effect("a create that fails on chain is TX_FAILED and fails its grant; the same digest answers the same and moves no other grant", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { client, owner, asOwner } = yield* setup
        const agent = newAgent()
        const expiresAt = Date.now() + 700
        const doomed = yield* client.delegatedSigners.create(expiringRequest(agent, "doomed", expiresAt)).pipe(asOwner)
        const bystander = yield* client.delegatedSigners.create(createRequest(agent, "bystander")).pipe(asOwner)
        const [grant, other] = [doomed.grants[0], bystander.grants[0]]
        if (grant === undefined || other === undefined) return assert.fail("two grants")
        // Executed after its expiry, the create aborts on chain (EExpired).
        yield* Effect.sleep(`${expiresAt - Date.now() + 100} millis`)
        const digest = yield* ledger.executeAsIs(grant.txKindBytes, owner)
        yield* ledger.checkpoint

        const params = { id: doomed.delegatedSignerId, grantId: grant.grantId }
        const failed = yield* failsWith(client.delegatedSigners.finalizeCreate({ params, payload: { digest } }).pipe(asOwner), "TX_FAILED")
        assert.include(failed.reason, `abort code: ${AbortCode.EExpired}`)
        const view = yield* signerOf(client, asOwner, doomed.delegatedSignerId)
        assert.strictEqual(view.grants[0]?.status, "failed")
        assert.isNull(view.grants[0]?.grantObjectId)
        assert.strictEqual(view.status, "failed")
        const repeated = yield* failsWith(client.delegatedSigners.finalizeCreate({ params, payload: { digest } }).pipe(asOwner), "TX_FAILED")
        assert.strictEqual(repeated.reason, failed.reason)
        const revoke = yield* failsWith(client.delegatedSigners.revoke({ params: { id: doomed.delegatedSignerId } }).pipe(asOwner), "CONFLICT")
        assert.strictEqual(revoke.reason, "signer_is_failed")

        // Recorded for the doomed grant, the digest cannot move another one.
        const elsewhere = yield* failsWith(
          client.delegatedSigners.finalizeCreate({ params: { id: bystander.delegatedSignerId, grantId: other.grantId }, payload: { digest } }).pipe(asOwner),
          "CONFLICT"
        )
        assert.strictEqual(elsewhere.reason, "digest_already_used_by_another_grant")
        assert.strictEqual((yield* signerOf(client, asOwner, bystander.delegatedSignerId)).grants[0]?.status, "pending")
      }))

    it.effect("a failed transaction that is not the grant's own create answers TX_FAILED and changes nothing", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { client, owner, asOwner } = yield* setup
        const expiresAt = Date.now() + 700
        const doomed = yield* client.delegatedSigners.create(expiringRequest(newAgent(), "doomed-2", expiresAt)).pipe(asOwner)
        const bystander = yield* client.delegatedSigners.create(createRequest(newAgent(), "bystander-2")).pipe(asOwner)
        const [grant, other] = [doomed.grants[0], bystander.grants[0]]
        if (grant === undefined || other === undefined) return assert.fail("two grants")
        yield* Effect.sleep(`${expiresAt - Date.now() + 100} millis`)
        const digest = yield* ledger.executeAsIs(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        const params = { id: bystander.delegatedSignerId, grantId: other.grantId }
        yield* failsWith(client.delegatedSigners.finalizeCreate({ params, payload: { digest } }).pipe(asOwner), "TX_FAILED")
        assert.strictEqual((yield* signerOf(client, asOwner, bystander.delegatedSignerId)).grants[0]?.status, "pending")
        // Not recorded for the bystander: the doomed grant's own finalize still fails it.
        yield* failsWith(
          client.delegatedSigners.finalizeCreate({ params: { id: doomed.delegatedSignerId, grantId: grant.grantId }, payload: { digest } }).pipe(asOwner),
          "TX_FAILED"
        )
        assert.strictEqual((yield* signerOf(client, asOwner, doomed.delegatedSignerId)).grants[0]?.status, "failed")
      }))

    it.effect("a grant abandoned at revoke stays failed: a create executed afterwards is refused, not bound", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { client, owner, asOwner } = yield* setup
        const created = yield* client.delegatedSigners.create(createRequest(newAgent(), "all-pending")).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant")
        const id = created.delegatedSignerId
        const abandoned = yield* client.delegatedSigners.revoke({ params: { id } }).pipe(asOwner)
        assert.strictEqual(abandoned.status, "failed")
        assert.strictEqual(abandoned.grants.length, 0)
        yield* failsWith(client.delegatedSigners.revoke({ params: { id } }).pipe(asOwner), "CONFLICT")

        const digest = yield* ledger.execute(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        const refused = yield* failsWith(client.delegatedSigners.finalizeCreate({ params: { id, grantId: grant.grantId }, payload: { digest } }).pipe(asOwner), "CONFLICT")
        assert.strictEqual(refused.reason, "grant_is_failed")
        const view = yield* signerOf(client, asOwner, id)
        assert.strictEqual(view.status, "failed")
        assert.deepStrictEqual(view.grants.map((g) => [g.status, g.grantObjectId]), [["failed", null]])
      }))

    it.effect("a grant past its expiry reads expired through the API, and refuses every change", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { client, owner, asOwner } = yield* setup
        const expiresAt = Date.now() + 1500
        const created = yield* client.delegatedSigners.create(expiringRequest(newAgent(), "expiring", expiresAt)).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant")
        const id = created.delegatedSignerId
        const digest = yield* ledger.execute(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        const done = yield* client.delegatedSigners.finalizeCreate({ params: { id, grantId: grant.grantId }, payload: { digest } }).pipe(asOwner)
        assert.strictEqual(done.status, "active")
        assert.strictEqual((yield* signerOf(client, asOwner, id)).status, "active")

        yield* Effect.sleep(`${expiresAt - Date.now() + 100} millis`)
        const view = yield* signerOf(client, asOwner, id)
        assert.strictEqual(view.grants[0]?.status, "expired")
        assert.strictEqual(view.status, "expired")
        const listed = yield* client.delegatedSigners.list({ query: {} }).pipe(asOwner)
        assert.strictEqual(listed.delegatedSigners[0]?.status, "expired")
        const pause = yield* failsWith(client.delegatedSigners.preparePause({ params: { id } }).pipe(asOwner), "CONFLICT")
        assert.strictEqual(pause.reason, "signer_is_expired")
        yield* failsWith(client.delegatedSigners.revoke({ params: { id } }).pipe(asOwner), "CONFLICT")
        yield* failsWith(client.delegatedSigners.manifest({ params: { id } }).pipe(asOwner), "CONFLICT")
        const repeated = yield* client.delegatedSigners.finalizeCreate({ params: { id, grantId: grant.grantId }, payload: { digest } }).pipe(asOwner)
        assert.isTrue(repeated.alreadyFinalized)
      }))
  })

  layer(Layer.mergeAll(TestLedger.layer.pipe(Layer.provideMerge(layerTestServer({ pendingGrantTtlMs: 1000 }))), FetchLayer), {
    excludeTestServices: true
  })((it) => {
    it.effect("a create executed after its deadline aborts on chain, and its grant is failed for good", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const client = yield* makeApiClient(yield* BaseUrl)
        const { owner, asOwner } = yield* fundedOwner(client)
        const created = yield* client.delegatedSigners.create(createRequest(newAgent(), "late")).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant")
        const id = created.delegatedSignerId
        yield* Effect.sleep("1100 millis")
        const timedOut = (yield* client.delegatedSigners.get({ params: { id } }).pipe(asOwner)).delegatedSigner
        assert.strictEqual(timedOut.grants[0]?.status, "failed")
        assert.strictEqual(timedOut.status, "failed")

        const digest = yield* ledger.executeAsIs(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        const failure = yield* failsWith(client.delegatedSigners.finalizeCreate({ params: { id, grantId: grant.grantId }, payload: { digest } }).pipe(asOwner), "TX_FAILED")
        assert.include(failure.reason, `abort code: ${AbortCode.EDeadlinePassed}`)
        const view = (yield* client.delegatedSigners.get({ params: { id } }).pipe(asOwner)).delegatedSigner
        assert.deepStrictEqual(view.grants.map((g) => [g.status, g.grantObjectId]), [["failed", null]])
        yield* failsWith(client.delegatedSigners.revoke({ params: { id } }).pipe(asOwner), "CONFLICT")
      }))

    it.effect("a create executed in time but reported after its deadline is refused: failed is terminal", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const client = yield* makeApiClient(yield* BaseUrl)
        const { owner, asOwner } = yield* fundedOwner(client)
        const created = yield* client.delegatedSigners.create(createRequest(newAgent(), "reported-late")).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant")
        const id = created.delegatedSignerId
        const digest = yield* ledger.execute(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        yield* Effect.sleep("1100 millis")
        const refused = yield* failsWith(client.delegatedSigners.finalizeCreate({ params: { id, grantId: grant.grantId }, payload: { digest } }).pipe(asOwner), "CONFLICT")
        assert.strictEqual(refused.reason, "grant_is_failed")
        assert.strictEqual((yield* client.delegatedSigners.get({ params: { id } }).pipe(asOwner)).delegatedSigner.status, "failed")
      }))
  })
})
