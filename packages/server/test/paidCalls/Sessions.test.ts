import { assert, describe, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect, Layer, Schedule } from "effect"
import { decodePaymentResponseHeader } from "@x402/core/http"
import * as Kinds from "@gateway/chain/transactions/Kinds"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { AtomicAmount } from "@gateway/domain/Amount"
import { ObjectId } from "@gateway/domain/SuiAddress"
import { gatewayFor } from "../support/PaidEnv.ts"
import { liveService } from "../support/Scenario.ts"
import { grantSpent, openByHand, payWithVoucher, poolBalance, sessionOffer, sessionOnChain, voucherSignature } from "../support/SessionByHand.ts"
import { PRICE, sessionScenario } from "../support/SessionScenario.ts"
import { suiHeldBy } from "../support/SignByHand.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { Upstream } from "../support/Upstream.ts"

const env = Layer.unwrap(Effect.map(Upstream, (upstream) => gatewayFor([upstream.url]))).pipe(Layer.provideMerge(Upstream.layer))

/** A listed row as plain fields, to compare with `deepInclude`. */
const asRecord = (row: object | undefined): Record<string, unknown> => ({ ...row })

/** The transactions that took `objectId` as an input, among every checkpoint made so far. */
const transactionsTaking = (objectId: string) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const latest = yield* ledger.latestCheckpoint
    let count = 0
    for (let seq = 0n; seq <= latest.sequenceNumber; seq++) {
      const checkpoint = yield* ledger.getCheckpoint(seq)
      for (const digest of checkpoint?.transactions ?? []) {
        const tx = yield* ledger.getTransaction(digest)
        const inputs = tx?.data.V1.kind.ProgrammableTransaction?.inputs ?? []
        if (inputs.some((i) => i.Object?.SharedObject?.objectId === objectId)) count++
      }
    }
    return count
  })

/**
 * Sessions: one deposit on chain, a voucher per call, claims in batches. Threats: a voucher accepted twice, a call
 * paid above the deposit or by another key, a session of another seller, calls paid while the owner has paused the
 * grant, and a seller left unpaid for calls it answered.
 */
describe("payment sessions", () => {
  layer(env, { excludeTestServices: true, timeout: 120_000 })((it) => {
    it.effect("1,000 calls from one session: the chain holds the open, at most two claims and the close; the seller gets exactly 1,000 × price, the rest goes back", () =>
      Effect.gen(function*() {
        const deposit = 1_500n * PRICE
        const s = yield* sessionScenario({ budget: 100_000n, deposit })
        const payeeBefore = yield* suiHeldBy(s.entry.payTo)
        const poolAfterOpen = yield* poolBalance(s.pool.objectId)
        assert.strictEqual(yield* grantSpent(s.grant.objectId), deposit, "the deposit counts against the budget while the session is open")
        for (let call = 1n; call <= 1_000n; call++) {
          const answered = yield* payWithVoucher(s.entry.resourceUrl, s.offer, s.session, call * PRICE)
          if (answered.status !== 200) assert.fail(`call ${call}: ${answered.status} ${JSON.stringify(answered.body)}`)
        }
        assert.strictEqual(s.calls(), 1_000)
        assert.strictEqual(yield* grantSpent(s.grant.objectId), deposit, "vouchers move nothing on chain")
        const used = 1_000n * PRICE
        const signature = yield* voucherSignature(s.session.sessionKey, s.session.sessionId, used, true)
        const closed = yield* s.client.paymentSessions.close({
          params: { id: ObjectId.make(s.session.sessionId) },
          payload: { cumulativeAmount: AtomicAmount.make(used.toString()), signature }
        })
        assert.strictEqual(closed.claimed, used.toString())
        assert.strictEqual(closed.returned, (deposit - used).toString())
        assert.isUndefined(yield* sessionOnChain(s.session.sessionId), "closed: the session object is gone")
        assert.isAtMost(yield* transactionsTaking(s.session.sessionId), 3, "at most two claims and the close")
        assert.strictEqual((yield* suiHeldBy(s.entry.payTo)) - payeeBefore, used)
        assert.strictEqual((yield* poolBalance(s.pool.objectId)) - poolAfterOpen, deposit - used)
        assert.strictEqual(yield* grantSpent(s.grant.objectId), used, "the rest went back to the grant's budget")
        const listed = yield* s.client.delegatedSigners.sessions({ params: { id: s.signerId } }).pipe(s.asOwner)
        assert.deepInclude(asRecord(listed.sessions[0]), { sessionId: s.session.sessionId, used: used.toString(), calls: "1000", state: "closed", returned: (deposit - used).toString() })
      }), { timeout: 120_000 })

    it.effect("a voucher pays one call: never twice, not below the price, not above the deposit, not for another session or payee, not by another key", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const s = yield* sessionScenario({ budget: 10_000n, deposit: 10n * PRICE })
        const url = s.entry.resourceUrl
        const first = yield* payWithVoucher(url, s.offer, s.session, PRICE)
        assert.strictEqual(first.status, 200, JSON.stringify(first.body))
        assert.deepInclude(decodePaymentResponseHeader(first.paymentResponse ?? ""), { success: true, transaction: `${s.session.sessionId}:${PRICE}` })
        const refusal = (a: { readonly status: number; readonly body: Record<string, unknown> }) => `${a.status} ${String(a.body["reason"])}`
        assert.strictEqual(refusal(yield* payWithVoucher(url, s.offer, s.session, PRICE)), "409 voucher_already_used")
        assert.strictEqual(refusal(yield* payWithVoucher(url, s.offer, s.session, PRICE + PRICE / 2n)), "400 voucher_below_price")
        assert.strictEqual(refusal(yield* payWithVoucher(url, s.offer, s.session, 2n * PRICE, new Ed25519Keypair())), "400 voucher_signature_invalid")
        assert.strictEqual(refusal(yield* payWithVoucher(url, s.offer, s.session, 11n * PRICE)), "409 voucher_above_deposit")
        // A voucher signed for this session, presented as another session of the same agent: the signature names the session.
        const other = yield* openByHand({ ...s, payee: s.entry.payTo, operator: String(s.offer.extra["sessionOperator"]), deposit: PRICE, expiryMs: BigInt(Date.now() + 3_600_000) })
        assert.strictEqual(refusal(yield* payWithVoucher(url, s.offer, { sessionId: other.sessionId, sessionKey: s.session.sessionKey }, 2n * PRICE)), "400 voucher_signature_invalid")
        // The session pays one payee: another seller's service is not paid from it.
        const { entry: elsewhere } = yield* liveService(s.client, { price: PRICE, upstreamUrl: upstream.url })
        const elsewhereOffer = yield* sessionOffer(elsewhere.resourceUrl)
        assert.strictEqual(refusal(yield* payWithVoucher(elsewhere.resourceUrl, elsewhereOffer, s.session, 2n * PRICE)), "400 session_for_another_payee")
        assert.strictEqual(s.calls(), 1, "only the one paid call was forwarded")
        const listed = yield* s.client.sellers.sessions({ params: { id: s.entry.id } }).pipe(s.seller)
        assert.strictEqual(listed.sessions.length, 1, "the other session, whose voucher did not verify, was not stored")
        assert.deepInclude(asRecord(listed.sessions[0]), { sessionId: s.session.sessionId, used: PRICE.toString(), calls: "1", state: "open" })
      }))

    it.effect("the seller fails: the call does not count, and the same voucher pays the retry once", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const s = yield* sessionScenario({ budget: 10_000n, deposit: 10n * PRICE })
        upstream.failing = true
        const failed = yield* payWithVoucher(s.entry.resourceUrl, s.offer, s.session, PRICE)
        upstream.failing = false
        assert.strictEqual(failed.status, 503)
        assert.match(String(failed.body["reason"]), /nothing_charged_retry_with_the_same_voucher$/)
        const retried = yield* payWithVoucher(s.entry.resourceUrl, s.offer, s.session, PRICE)
        assert.strictEqual(retried.status, 200, JSON.stringify(retried.body))
        assert.strictEqual((yield* payWithVoucher(s.entry.resourceUrl, s.offer, s.session, PRICE)).status, 409)
        assert.strictEqual(s.calls(), 2, "the failed forward and the retry")
        const listed = yield* s.client.sellers.sessions({ params: { id: s.entry.id } }).pipe(s.seller)
        assert.deepInclude(asRecord(listed.sessions[0]), { used: PRICE.toString(), calls: "1" })
      }))

    it.effect("a session too close to its expiry takes no voucher: its claims could not be made in time", () =>
      Effect.gen(function*() {
        const s = yield* sessionScenario({ budget: 10_000n, deposit: 10n * PRICE, expiresInMs: 60_000 })
        const late = yield* payWithVoucher(s.entry.resourceUrl, s.offer, s.session, PRICE)
        assert.strictEqual(`${late.status} ${String(late.body["reason"])}`, "409 session_near_expiry")
        assert.strictEqual(s.calls(), 0)
      }))

    it.effect("the owner pauses the grant in their own wallet: vouchers are refused; the vouchers it answered before are still claimed for the seller", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        // Calls go on until the gateway has read the pause: a deposit for as many as it may take.
        const s = yield* sessionScenario({ budget: 10_000n, deposit: 100n * PRICE })
        for (let call = 1n; call <= 3n; call++) assert.strictEqual((yield* payWithVoucher(s.entry.resourceUrl, s.offer, s.session, call * PRICE)).status, 200)
        const payeeBefore = yield* suiHeldBy(s.entry.payTo)
        const registry = yield* ledger.sharedRef(ledger.pkg.registryId)
        const pause = yield* Effect.promise(() => Kinds.pauseGrant(ledger.pkg, { sender: s.owner.toSuiAddress(), registry, grant: s.grant, kind: 0 }))
        yield* ledger.execute(pause.txKindBytes, s.owner)
        // The gateway reads the grants of live sessions from the chain every few seconds: until it has, calls go on.
        let cumulative = 3n * PRICE
        let refused: { readonly status: number; readonly body: Record<string, unknown> } | undefined
        for (let attempt = 0; attempt < 40 && refused === undefined; attempt++) {
          const next = yield* payWithVoucher(s.entry.resourceUrl, s.offer, s.session, cumulative + PRICE)
          if (next.status === 200) cumulative += PRICE
          else refused = next
          if (refused === undefined) yield* Effect.sleep("300 millis")
        }
        assert.strictEqual(`${refused?.status} ${String(refused?.body["reason"])}`, "409 grant_paused")
        const callsAtPause = s.calls()
        yield* s.client.sellers.claimSessions({ params: { id: s.entry.id } }).pipe(s.seller, Effect.ignore)
        const claimed = yield* sessionOnChain(s.session.sessionId).pipe(
          Effect.repeat({ until: (onChain) => BigInt(onChain?.claimed ?? 0) === cumulative, schedule: Schedule.spaced("500 millis"), times: 30 })
        )
        assert.strictEqual(BigInt(claimed?.claimed ?? 0), cumulative, "the seller's answered calls are paid on chain while the grant is paused")
        assert.strictEqual((yield* suiHeldBy(s.entry.payTo)) - payeeBefore, cumulative)
        assert.isAtMost(s.calls(), callsAtPause, "nothing forwarded while paused")
      }), { timeout: 60_000 })
  })
})
