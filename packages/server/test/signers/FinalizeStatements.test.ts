import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Tracer } from "effect"
import { Statement } from "effect/sql"
import { FetchLayer, makeApiClient } from "@gateway/client"
import type { FinalizeAction } from "@gateway/domain/SignerStateMachine"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../../src/Config.ts"
import { PolicyRepo } from "../../src/owners/PolicyRepo.ts"
import { SignerRepo } from "../../src/signers/SignerRepo.ts"
import { GrantVerification } from "../../src/signers/GrantVerification.ts"
import { Policies } from "../../src/owners/Policies.ts"
import { PublicUrl } from "../../src/httpShared/PublicUrl.ts"
import { Signers } from "../../src/signers/Signers.ts"
import { createRequest, fundedOwner } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl, layerTestServer, testConfig } from "../support/TestServer.ts"

/** The server's own `Signers` over the test server's store and chain, to call it with statements counted. */
const SignersUnderTest = Signers.layer.pipe(
  Layer.provide(Layer.mergeAll(SignerRepo.layer, GrantVerification.layer, PublicUrl.layer, Policies.layer.pipe(Layer.provide(PolicyRepo.layer)))),
  Layer.provide(AppConfig.layer(testConfig))
)

const Env = Layer.mergeAll(
  SignersUnderTest.pipe(Layer.provideMerge(TestLedger.layer), Layer.provideMerge(layerTestServer())),
  FetchLayer
)

/**
 * Runs an effect counting the SQL statements it sends: every statement the
 * client executes, plus BEGIN and COMMIT for each transaction.
 */
const counted = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    let statements = 0
    let transactions = 0
    const base = yield* Effect.tracer
    const tracer = Tracer.make({
      span(options) {
        if (options.name === "sql.transaction") transactions++
        return base.span(options)
      }
    })
    const value = yield* self.pipe(
      Effect.withTracer(tracer),
      Effect.provideService(Statement.CurrentTransformer, (statement) =>
        Effect.sync(() => {
          statements++
          return statement
        }))
    )
    return { value, statements: statements + 2 * transactions }
  })

describe("finalize statements", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("a finalize runs at most 6 SQL statements, and a replay of it one", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const signers = yield* Signers
        const client = yield* makeApiClient(yield* BaseUrl)
        const { owner, asOwner } = yield* fundedOwner(client)
        const address = SuiAddress.make(owner.toSuiAddress())
        const created = yield* client.delegatedSigners.create(createRequest(new Ed25519Keypair().toSuiAddress(), "count")).pipe(asOwner)
        const id = created.delegatedSignerId
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("a grant")

        const finalize = (action: FinalizeAction, txKindBytes: string) =>
          Effect.gen(function*() {
            const digest = yield* ledger.execute(txKindBytes, owner)
            yield* ledger.checkpoint
            const first = yield* counted(signers.finalize(address, action, id, grant.grantId, digest))
            const replay = yield* counted(signers.finalize(address, action, id, grant.grantId, digest))
            assert.isFalse(first.value.alreadyFinalized)
            assert.isTrue(replay.value.alreadyFinalized)
            // The signer with the digest's record; BEGIN, the grants locked, the digest's record again, one write, COMMIT.
            assert.strictEqual(first.statements, 6, action)
            assert.strictEqual(replay.statements, 1, `${action} replay`)
            return first.value
          })

        assert.strictEqual((yield* finalize("finalizeCreate", grant.txKindBytes)).status, "active")
        const pause = yield* client.delegatedSigners.preparePause({ params: { id } }).pipe(asOwner)
        const kind = pause.grants[0]
        if (kind === undefined) return assert.fail("a pause kind")
        const paused = yield* finalize("finalizePause", kind.txKindBytes)
        assert.strictEqual(paused.status, "paused")
        assert.strictEqual(paused.signerStatus, "paused")
      }))
  })
})
