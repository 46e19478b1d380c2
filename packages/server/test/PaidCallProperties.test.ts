import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { LocalLedger } from "@gateway/chain/local/LocalLedger"
import { localLedgerAccess } from "@gateway/chain/local/LocalLedgerAccess"
import { makeApiClient } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { Events, eventType } from "@gateway/domain/chain/SpendAccountModule"
import { fromBase64 } from "@mysten/sui/utils"
import type { GrantId } from "@gateway/domain/Ids"
import { fundedOwner, grantedAgent, liveService, paidCallEnv } from "./Scenario.ts"
import { TestLedger } from "./TestLedger.ts"
import { BaseUrl } from "./TestServer.ts"
import { Upstream } from "./Upstream.ts"

const Action = fc.constantFrom("pay" as const, "pay" as const, "pay" as const, "pause" as const, "resume" as const, "revoke" as const)
type Action = typeof Action extends fc.Arbitrary<infer A> ? A : never

const PRICE = 40n
const BUDGET = 200n

describe("paid calls under owner changes", () => {
  layer(paidCallEnv(), {
    excludeTestServices: true
  })((it) => {
    it.effect("random interleavings never pay beyond the budget, and every forward has exactly one on-chain payment", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const ledger = yield* TestLedger
        const local = yield* LocalLedger
        const upstream = yield* Upstream
        const client = yield* makeApiClient(baseUrl)
        const access = yield* localLedgerAccess
        let runs = 0

        const scenario = (actions: ReadonlyArray<Action>) =>
          Effect.gen(function*() {
            runs += 1
            const { entry } = yield* liveService(client, { price: PRICE, upstreamUrl: upstream.url })
            const { owner, asOwner } = yield* fundedOwner(client)
            const { agentKey, manifest, signerId: id } = yield* grantedAgent(client, owner, asOwner, { key: `interleave-${runs}`, budget: BUDGET, perPayment: 100n })
            const step = (kind: { grantId: GrantId; txKindBytes: string }, finalize: "finalizePause" | "finalizeResume" | "finalizeRevoke") =>
              Effect.gen(function*() {
                const digest = yield* ledger.execute(kind.txKindBytes, owner)
                yield* ledger.checkpoint
                yield* client.delegatedSigners[finalize]({ params: { id, grantId: kind.grantId }, payload: { digest } }).pipe(asOwner)
              })
            const agent = makeAgent({ manifest, signer: agentKey, ledger: access })

            const forwarded: Array<string> = []
            let paused = false
            let revoked = false
            for (const action of actions) {
              if (action === "pay") {
                const paid = yield* Effect.result(agent.fetchPaid(entry.resourceUrl))
                if (paid._tag === "Success" && paid.success.response.status === 200 && paid.success.digest !== undefined) forwarded.push(paid.success.digest)
                const mayPay = !paused && !revoked && BigInt(forwarded.length) * PRICE <= BUDGET
                if (paid._tag === "Success") assert.isTrue(mayPay, "a paused, revoked or exhausted grant paid")
              } else if (!revoked) {
                const prepared = yield* Effect.result(
                  action === "pause"
                    ? client.delegatedSigners.preparePause({ params: { id } }).pipe(asOwner)
                    : action === "resume"
                    ? client.delegatedSigners.prepareResume({ params: { id } }).pipe(asOwner)
                    : client.delegatedSigners.revoke({ params: { id } }).pipe(asOwner)
                )
                if (prepared._tag === "Failure") continue
                for (const kind of prepared.success.grants) {
                  yield* step(kind, action === "pause" ? "finalizePause" : action === "resume" ? "finalizeResume" : "finalizeRevoke")
                }
                if (action === "pause") paused = true
                if (action === "resume") paused = false
                if (action === "revoke") revoked = true
              }
            }

            assert.isTrue(BigInt(forwarded.length) * PRICE <= BUDGET, "the total paid exceeds the budget")
            for (const digest of forwarded) {
              const tx = yield* local.getTransaction(digest)
              const payments = tx.events.filter((e) => e.type === eventType(local.config.packageId, "PaymentMade"))
              assert.strictEqual(payments.length, 1)
              const payment = payments[0]
              if (payment === undefined) return assert.fail("no payment")
              const made = Events.PaymentMade.parse(fromBase64(payment.bcs))
              assert.strictEqual(BigInt(made.amount), PRICE)
              assert.strictEqual(made.recipient, entry.payTo)
            }
            assert.strictEqual(new Set(forwarded).size, forwarded.length)
          })

        const run = Effect.runPromiseWith(yield* Effect.context<TestLedger | LocalLedger>())
        yield* Effect.promise(() =>
          fc.assert(fc.asyncProperty(fc.array(Action, { minLength: 3, maxLength: 10 }), (actions) => run(scenario(actions))), { seed: 77, numRuns: 6 })
        )
      }))
  })
})
