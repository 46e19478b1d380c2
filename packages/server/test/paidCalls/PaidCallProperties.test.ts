import { assert, describe, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as fc from "fast-check"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { decodePaymentSignatureHeader } from "@x402/core/http"
import { makeApiClient } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { Events, eventType, normalizeCoinType, Structs, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { isApiError } from "@gateway/domain/Errors"
import { fundedOwner, grantedAgent, liveService, paidCallEnv } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"

const PRICE = 40n
/** Room for four payments, so runs also meet the session cap. */
const BUDGET = 160n
/** Agent payments in flight at once, each with a gas coin of its own (one coin would make concurrent payments collide on its version). */
const LANES = 3

type Change = "pause" | "resume" | "revoke"
type OwnerState = "active" | "paused" | "revoked"

/**
 * One step: up to LANES agent payments, perhaps a replay of a credential
 * already used, and perhaps an owner change, all at once, each after its own
 * small delay so that the chain sees them in varied orders.
 */
interface Step {
  readonly payers: number
  readonly replay: boolean
  readonly owner: Change | "none"
  readonly delays: ReadonlyArray<number>
}

const StepArb: fc.Arbitrary<Step> = fc.record({
  payers: fc.integer({ min: 1, max: LANES }),
  replay: fc.boolean(),
  // Revokes are rarer: one ends the run's interesting part.
  owner: fc.constantFrom<Change | "none">("none", "none", "none", "pause", "pause", "resume", "resume", "revoke"),
  delays: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: LANES + 2, maxLength: LANES + 2 })
})

/**
 * What the agent saw: the call was forwarded with a receipt, or the chain
 * refused the payment, in the wallet's dry run (no digest) or on chain.
 */
type Outcome =
  | { readonly _tag: "Forwarded"; readonly call: string; readonly digest: string; readonly credential: string }
  | { readonly _tag: "Aborted"; readonly call: string; readonly abort: string; readonly digest: string | undefined }

/** The Move abort a payment may meet in each owner state (the module checks revoked, then paused, then the caps). */
const abortIn = (state: OwnerState) => (state === "revoked" ? "ERevoked" : state === "paused" ? "EPaused" : "EExceedsSessionCap")

const afterChange = (change: Change): OwnerState => (change === "pause" ? "paused" : change === "resume" ? "active" : "revoked")

/** Whether the API must accept `change` in `state`, and its CONFLICT reason otherwise. */
const refusalOf = (change: Change, state: OwnerState): string | undefined => {
  if (state === "revoked") return "signer_is_revoked"
  if (change === "pause" && state === "paused") return "no_grant_can_be_paused"
  if (change === "resume" && state === "active") return "no_grant_can_be_resumed"
  return undefined
}

const sorted = (values: ReadonlyArray<string>) => [...values].sort()

/** One field of a JSON object, or undefined. */
const field = (json: string, key: string): unknown => {
  const value: unknown = JSON.parse(json)
  return typeof value === "object" && value !== null && key in value ? Object.entries(value).find(([k]) => k === key)?.[1] : undefined
}

describe("paid calls under owner changes", () => {
  layer(paidCallEnv(), {
    excludeTestServices: true
  })((it) => {
    it.effect("concurrent payments and owner changes: never beyond the budget, one payment per forward, refused payments move nothing", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const ledger = yield* TestLedger
        const sui = ledger.client
        const sql = yield* SqlClient.SqlClient
        const upstream = yield* Upstream
        const client = yield* makeApiClient(baseUrl)
        const paymentMade = eventType(ledger.pkg.originalId, "PaymentMade")
        const transaction = (digest: string) =>
          Effect.promise(() => sui.core.getTransaction({ digest, include: { effects: true, events: true, balanceChanges: true } })).pipe(
            Effect.map((result) => result.Transaction ?? result.FailedTransaction)
          )
        let runs = 0

        const scenario = (steps: ReadonlyArray<Step>) =>
          Effect.gen(function*() {
            runs += 1
            const run = runs
            const { entry, payTo } = yield* liveService(client, { price: PRICE, upstreamUrl: upstream.url })
            const { owner, asOwner } = yield* fundedOwner(client)
            const { agentKey, manifest, signerId: id } = yield* grantedAgent(client, owner, asOwner, { key: "interleave", budget: BUDGET, perPayment: 100n })
            const granted = manifest.grants[0]
            if (granted === undefined) return assert.fail("no grant in the manifest")
            const grantObjectId = normalizeSuiAddress(granted.grantObjectId)
            const poolBalance = Effect.map(ledger.contents(granted.pool), (bytes) => BigInt(Structs.Pool.parse(bytes).balance.value))
            const poolBefore = yield* poolBalance
            const grantOnChain = Effect.map(ledger.contents(grantObjectId), (bytes) => Structs.Grant.parse(bytes))

            // Each lane pays gas with a coin of its own from the faucet, named to the wallet at its current version.
            for (let lane = 0; lane < LANES; lane++) yield* ledger.gas(agentKey.toSuiAddress())
            const coins = yield* Effect.promise(() => sui.core.listCoins({ owner: agentKey.toSuiAddress() }))
            const lanes = coins.objects.slice(0, LANES).map((coin) =>
              makeAgent({
                manifest,
                signer: agentKey,
                client: sui,
                // The property pins the upfront flow (each payment executed by its lane, then presented).
                payment: "upfront",
                gas: Effect.promise(() => sui.core.getObject({ objectId: coin.objectId })).pipe(
                  Effect.map(({ object }) => ({ coins: [{ objectId: object.objectId, version: object.version, digest: object.digest }] }))
                )
              })
            )
            assert.strictEqual(lanes.length, LANES)

            const pay = (agent: (typeof lanes)[number], call: string) =>
              Effect.gen(function*() {
                const paid = yield* Effect.result(agent.fetchPaid(`${entry.resourceUrl}?call=${call}`))
                if (paid._tag === "Failure") {
                  const error = paid.failure
                  const abort = error._tag === "PaymentRefused" ? /^the chain refused the payment: (E\w+) \(/.exec(error.reason)?.[1] : undefined
                  if (abort === undefined) return assert.fail(`${call}: ${error._tag} ${"reason" in error ? error.reason : ""}`)
                  return { _tag: "Aborted", call, abort, digest: error._tag === "PaymentRefused" ? error.digest : undefined } satisfies Outcome
                }
                const { response, digest, credential, receipt } = paid.success
                const body = yield* Effect.promise(() => response.text())
                // The chain took the money: the gateway must forward, whatever the owner is doing meanwhile.
                assert.strictEqual(response.status, 200, `${call} paid but was answered ${body}`)
                if (digest === undefined || credential === undefined) return assert.fail(`${call}: answered without paying`)
                assert.strictEqual(field(body, "answer"), 42)
                assert.strictEqual(receipt?.transaction, digest, `${call}: PAYMENT-RESPONSE`)
                const receiptHeader = response.headers.get("payment-receipt") ?? ""
                assert.strictEqual(field(Buffer.from(receiptHeader, "base64url").toString(), "reference"), digest, `${call}: Payment-Receipt`)
                return { _tag: "Forwarded", call, digest, credential } satisfies Outcome
              })

            // A used credential presented again, for another request, must buy nothing more: its proof names the request it paid for.
            const replay = (credential: string, call: string) =>
              Effect.promise(async () => {
                const response = await fetch(`${entry.resourceUrl}?call=${call}`, { headers: { "payment-signature": credential } })
                return { status: response.status, reason: field(await response.text(), "reason") }
              }).pipe(Effect.map((answer) => assert.deepStrictEqual(answer, { status: 402, reason: "payment_proof_invalid" }, call)))

            // Changed inside the owner's effect, so held in an object the compiler does not narrow.
            // A revoke leaves the chain's paused flag as it was, so that flag is kept apart.
            const owned: { state: OwnerState; paused: boolean } = { state: "active", paused: false }
            const ownerTxs: Array<{ readonly digest: string; readonly change: Change }> = []
            const change = (what: Change) =>
              Effect.gen(function*() {
                const prepared = yield* Effect.result(
                  what === "pause"
                    ? client.delegatedSigners.preparePause({ params: { id } }).pipe(asOwner)
                    : what === "resume"
                    ? client.delegatedSigners.prepareResume({ params: { id } }).pipe(asOwner)
                    : client.delegatedSigners.revoke({ params: { id } }).pipe(asOwner)
                )
                const refusal = refusalOf(what, owned.state)
                if (refusal !== undefined) {
                  const error = prepared._tag === "Failure" ? prepared.failure : undefined
                  return assert.deepStrictEqual(isApiError(error) ? [error.code, error.reason] : error, ["CONFLICT", refusal], `${what} from ${owned.state}`)
                }
                if (prepared._tag === "Failure") return assert.fail(`${what} from ${owned.state}: ${String(prepared.failure)}`)
                const [kind, ...more] = prepared.success.grants
                if (kind === undefined || more.length > 0) return assert.fail(`${what}: one kind expected`)
                const digest = yield* ledger.execute(kind.txKindBytes, owner)
                yield* ledger.checkpoint
                const finalize = what === "pause" ? "finalizePause" : what === "resume" ? "finalizeResume" : "finalizeRevoke"
                const done = yield* client.delegatedSigners[finalize]({ params: { id, grantId: kind.grantId }, payload: { digest } }).pipe(asOwner)
                assert.strictEqual(done.status, what === "pause" ? "paused" : what === "resume" ? "active" : "revoked")
                ownerTxs.push({ digest, change: what })
                owned.state = afterChange(what)
                if (what !== "revoke") owned.paused = what === "pause"
              })

            const outcomes: Array<Outcome> = []
            for (const [s, step] of steps.entries()) {
              const before = owned.state
              const spentBefore = PRICE * BigInt(outcomes.filter((o) => o._tag === "Forwarded").length)
              const used = outcomes.flatMap((o) => (o._tag === "Forwarded" ? [o.credential] : []))
              const delayed = <A, E, R>(i: number, effect: Effect.Effect<A, E, R>) => Effect.andThen(Effect.sleep(Duration.millis(step.delays[i] ?? 0)), effect)
              const [paid] = yield* Effect.all([
                Effect.all(lanes.slice(0, step.payers).map((agent, lane) => delayed(lane, pay(agent, `r${run}s${s}l${lane}`))), { concurrency: "unbounded" }),
                step.owner === "none" ? Effect.void : delayed(LANES, change(step.owner)),
                step.replay && used.length > 0 ? delayed(LANES + 1, replay(used[used.length - 1] ?? "", `r${run}s${s}replay`)) : Effect.void
              ], { concurrency: "unbounded" })
              outcomes.push(...paid)

              // Payments race the owner's change, so any state the grant was in during the step may have met them.
              const after = owned.state
              const states = new Set([before, after])
              const forwarded = paid.filter((o) => o._tag === "Forwarded").length
              const room = Number((BUDGET - spentBefore) / PRICE)
              assert.isAtMost(forwarded, states.has("active") ? Math.min(step.payers, room) : 0, `step ${s}: payments from ${before} to ${after}`)
              for (const o of paid) if (o._tag === "Aborted") assert.include([...states].map(abortIn), o.abort, `step ${s}: ${o.call}`)
              // With no change made, the outcome is fully determined: the chain serializes the payments.
              if (before === after && after === "active") assert.strictEqual(forwarded, Math.min(step.payers, room), `step ${s}: payments with room for ${room}`)

              const onChain = yield* grantOnChain
              assert.strictEqual(BigInt(onChain.spent), spentBefore + PRICE * BigInt(forwarded), `step ${s}: spent on chain`)
              assert.deepStrictEqual({ paused: onChain.paused, revoked: onChain.revoked }, { paused: owned.paused, revoked: after === "revoked" }, `step ${s}: chain flags`)
            }

            yield* ledger.checkpoint
            const forwarded = outcomes.flatMap((o) => (o._tag === "Forwarded" ? [o] : []))
            const made = yield* Effect.forEach(forwarded, (o) =>
              Effect.map(transaction(o.digest), (tx) => {
                const events = tx.events.filter((e) => e.eventType === paymentMade)
                assert.strictEqual(events.length, 1, `${o.call}: one PaymentMade`)
                return { digest: o.digest, event: Events.PaymentMade.parse(events[0]?.bcs ?? new Uint8Array()) }
              }))
            for (const p of made) assert.strictEqual(normalizeSuiAddress(p.event.grant_id), grantObjectId)
            const total = made.reduce((sum, p) => sum + BigInt(p.event.amount), 0n)

            // Never beyond the budget: by the events, by the grant's own count, and by the pool and the seller's
            // balances. The count and the balances also say the chain made no payment beyond those forwarded.
            assert.isTrue(total <= BUDGET, `paid ${total} of a budget of ${BUDGET}`)
            assert.strictEqual(BigInt((yield* grantOnChain).spent), total)
            assert.deepStrictEqual(made.map((p) => BigInt(p.event.spent)).sort((a, b) => (a < b ? -1 : 1)), made.map((_, i) => PRICE * BigInt(i + 1)))
            for (const p of made) {
              assert.strictEqual(BigInt(p.event.amount), PRICE)
              assert.strictEqual(normalizeSuiAddress(p.event.recipient), normalizeSuiAddress(payTo))
            }
            assert.strictEqual(poolBefore - (yield* poolBalance), total, "the pool lost exactly what was paid")
            const received = yield* Effect.promise(() => sui.core.getBalance({ owner: payTo, coinType: normalizeCoinType(SUI_COIN_TYPE) }))
            assert.strictEqual(BigInt(received.balance.balance), total, "the seller received exactly what was paid")

            // Each payment carries its own challenge's nonce: one challenge, one payment.
            const nonces = made.map((p) => new TextDecoder().decode(Uint8Array.from(p.event.memo)))
            assert.strictEqual(new Set(nonces).size, nonces.length, "a nonce paid twice")
            for (const nonce of nonces) assert.isTrue(nonce.startsWith(`${entry.id}.`), `a memo that is not this service's nonce: ${nonce}`)

            // Every forward has exactly one PaymentMade, and every PaymentMade exactly one forward:
            // the seller's calls are the forwarded calls, each once, and each forward's credential names
            // the digest of one PaymentMade that carries the credential's own nonce.
            const calls = upstream.calls
              .map((c) => new URL(c.url, upstream.url).searchParams.get("call") ?? "")
              .filter((call) => call.startsWith(`r${run}s`))
            assert.deepStrictEqual(sorted(calls), sorted(forwarded.map((o) => o.call)), "the seller's calls")
            for (const o of forwarded) {
              const presented = decodePaymentSignatureHeader(o.credential)
              const payment = made.find((p) => p.digest === o.digest)
              assert.strictEqual(presented.payload["digest"], o.digest, `${o.call}: the credential's digest`)
              assert.strictEqual(
                payment === undefined ? undefined : new TextDecoder().decode(Uint8Array.from(payment.event.memo)),
                presented.accepted.extra?.["nonce"],
                `${o.call}: the nonce paid`
              )
            }

            // The gateway's own record: every payment it accepted was forwarded.
            const recorded = yield* sql<{ digest: string; status: string; grantObjectId: string }>`
              SELECT digest, status, grant_object_id FROM payments WHERE service_id = ${entry.id}`
            assert.deepStrictEqual(sorted(recorded.map((p) => p.digest)), sorted(made.map((p) => p.digest)), "payments the gateway recorded")
            for (const p of recorded) {
              assert.deepStrictEqual({ status: p.status, grant: normalizeSuiAddress(p.grantObjectId) }, { status: "forwarded", grant: grantObjectId })
            }

            // A payment the chain refused after the dry run passed moved nothing: it failed, emitted no event,
            // and changed no balance but the agent's gas.
            for (const o of outcomes) {
              if (o._tag !== "Aborted" || o.digest === undefined) continue
              const tx = yield* transaction(o.digest)
              assert.deepStrictEqual(
                {
                  success: tx.status.success,
                  events: tx.events.length,
                  moved: tx.balanceChanges.filter((c) => normalizeSuiAddress(c.address) !== normalizeSuiAddress(agentKey.toSuiAddress()))
                },
                { success: false, events: 0, moved: [] },
                `refused payment ${o.digest}`
              )
            }

            // In the chain's own order (the grant's versions), no payment went through a paused or revoked grant.
            const touching = [
              ...made.map((p) => ({ digest: p.digest, change: "pay" as const })),
              ...ownerTxs
            ]
            const ordered = yield* Effect.forEach(touching, (t) =>
              Effect.map(transaction(t.digest), (tx) => ({ ...t, version: BigInt(tx.effects.lamportVersion ?? "-1") })))
            let paused = false
            let revoked = false
            for (const t of ordered.sort((a, b) => (a.version < b.version ? -1 : 1))) {
              if (t.change === "pay") assert.isFalse(paused || revoked, `payment ${t.digest} went through a ${revoked ? "revoked" : "paused"} grant`)
              else if (t.change === "revoke") revoked = true
              else paused = t.change === "pause"
            }
          })

        const run = Effect.runPromiseWith(yield* Effect.context<TestLedger | SqlClient.SqlClient>())
        yield* Effect.promise(() =>
          fc.assert(fc.asyncProperty(fc.array(StepArb, { minLength: 3, maxLength: 10 }), (steps) => run(scenario(steps))), { seed: 77, numRuns: 30 })
        )
      }), 240_000)
  })
})
