import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import { LocalLedger } from "@gateway/chain/local/LocalLedger"
import { FetchLayer, makeApiClient } from "@gateway/client"
import { isApiError } from "@gateway/domain/Errors"
import type { GrantId } from "@gateway/domain/Ids"
import { amount, createRequest, fundedOwner, SUI } from "./Scenario.ts"
import { TestLedger } from "./TestLedger.ts"
import { BaseUrl, layerTestServer } from "./TestServer.ts"

const Op = fc.constantFrom(
  "finalizeCreate" as const,
  "pause" as const,
  "resume" as const,
  "revoke" as const,
  "preparePauseOnly" as const,
  "repeatLastFinalize" as const,
  "foreignDigest" as const
)
type Op = typeof Op extends fc.Arbitrary<infer O> ? O : never

/** The simple model: the one grant's status as the spec's state table says it must be. */
type ModelStatus = "pending" | "active" | "pausing" | "paused" | "revoking" | "revoked" | "failed"

const codeOf = (error: unknown) => (isApiError(error) ? error.code : String(error))

describe("the signer API against a model and the chain", () => {
  layer(Layer.mergeAll(TestLedger.layer.pipe(Layer.provideMerge(layerTestServer())), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("random lifecycles: after every step the API equals the model, and the chain agrees", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const ledger = yield* TestLedger
        const local = yield* LocalLedger
        const client = yield* makeApiClient(baseUrl)
        const stranger = yield* fundedOwner(client)
        let runs = 0

        const scenario = (ops: ReadonlyArray<Op>) =>
          Effect.gen(function*() {
            runs += 1
            const { owner, asOwner } = yield* fundedOwner(client)
            const created = yield* client.delegatedSigners.create(createRequest(new Ed25519Keypair().toSuiAddress(), `model-${runs}`)).pipe(asOwner)
            const id = created.delegatedSignerId
            const grant = created.grants[0]
            if (grant === undefined) return yield* Effect.die("no grant")
            const grantId: GrantId = grant.grantId
            let model: ModelStatus = "pending"
            let last: { step: "finalizeCreate" | "finalizePause" | "finalizeResume" | "finalizeRevoke"; digest: string } | undefined
            const run1 = (txKindBytes: string) => Effect.flatMap(ledger.execute(txKindBytes, owner), (digest) => Effect.as(ledger.checkpoint, digest))
            const finalize = (step: NonNullable<typeof last>["step"], digest: string) => {
              last = { step, digest }
              return client.delegatedSigners[step]({ params: { id, grantId }, payload: { digest } }).pipe(asOwner)
            }

            for (const op of ops) {
              switch (op) {
                case "finalizeCreate": {
                  if (model !== "pending") break
                  yield* finalize("finalizeCreate", yield* run1(grant.txKindBytes))
                  model = "active"
                  break
                }
                case "preparePauseOnly":
                case "pause": {
                  const prepared = yield* Effect.result(client.delegatedSigners.preparePause({ params: { id } }).pipe(asOwner))
                  if (model === "active" || model === "pausing") {
                    assert.strictEqual(prepared._tag, "Success", `pause from ${model}`)
                    model = "pausing"
                  } else {
                    assert.strictEqual(prepared._tag, "Failure", `pause from ${model}`)
                    assert.strictEqual(prepared._tag === "Failure" ? codeOf(prepared.failure) : "", "CONFLICT")
                    break
                  }
                  const kind = prepared._tag === "Success" ? prepared.success.grants[0] : undefined
                  if (op === "pause" && kind !== undefined) {
                    yield* finalize("finalizePause", yield* run1(kind.txKindBytes))
                    model = "paused"
                  }
                  break
                }
                case "resume": {
                  const prepared = yield* Effect.result(client.delegatedSigners.prepareResume({ params: { id } }).pipe(asOwner))
                  if (model !== "paused") {
                    assert.strictEqual(prepared._tag, "Failure", `resume from ${model}`)
                    break
                  }
                  const kind = prepared._tag === "Success" ? prepared.success.grants[0] : undefined
                  if (kind === undefined) return assert.fail("resume kind")
                  yield* finalize("finalizeResume", yield* run1(kind.txKindBytes))
                  model = "active"
                  break
                }
                case "revoke": {
                  const prepared = yield* Effect.result(client.delegatedSigners.revoke({ params: { id } }).pipe(asOwner))
                  if (model === "revoked" || model === "failed") {
                    assert.strictEqual(prepared._tag === "Failure" ? codeOf(prepared.failure) : "", "CONFLICT")
                    break
                  }
                  if (model === "pending") {
                    model = "failed"
                    break
                  }
                  const kind = prepared._tag === "Success" ? prepared.success.grants[0] : undefined
                  if (kind === undefined) return assert.fail(`revoke kind from ${model}`)
                  model = "revoking"
                  // The chain refuses to revoke nothing twice; the pause state does not matter to it.
                  yield* finalize("finalizeRevoke", yield* run1(kind.txKindBytes))
                  model = "revoked"
                  break
                }
                case "repeatLastFinalize": {
                  if (last === undefined) break
                  const again = yield* finalize(last.step, last.digest)
                  assert.isTrue(again.alreadyFinalized)
                  break
                }
                case "foreignDigest": {
                  const foreign = yield* ledger.execute(
                    (yield* client.spendAccounts.prepare({ payload: { asset: SUI, depositAtomic: amount(10n) } }).pipe(stranger.asOwner)).txKindBytes,
                    stranger.owner
                  )
                  yield* ledger.checkpoint
                  const refused = yield* Effect.flip(client.delegatedSigners.finalizeCreate({ params: { id, grantId }, payload: { digest: foreign } }).pipe(asOwner))
                  assert.include(["FOREIGN_DIGEST", "CONFLICT"], codeOf(refused))
                  break
                }
              }
              // After every step: the API's view is the model's, and the chain's grant object agrees with both.
              const view = (yield* client.delegatedSigners.get({ params: { id } }).pipe(asOwner)).delegatedSigner.grants[0]
              assert.strictEqual(view?.status, model, `after ${op}`)
              if (view?.grantObjectId !== null && view?.grantObjectId !== undefined) {
                const onChain = yield* local.getObject(view.grantObjectId)
                const data = onChain._tag === "Some" ? onChain.value.data : undefined
                if (data?._tag !== "Grant") return assert.fail("the grant object is not on chain")
                assert.strictEqual(data.revoked, model === "revoked", `chain revoked after ${op}`)
                assert.strictEqual(data.paused, model === "paused" || (model === "revoked" && data.paused), `chain paused after ${op}`)
              }
            }
          })

        const run = Effect.runPromiseWith(yield* Effect.context<TestLedger>())
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fc.array(Op, { minLength: 1, maxLength: 10 }), (ops) => run(scenario(ops))),
            { seed: 5150, numRuns: 12 }
          )
        )
      }))
  })
})
