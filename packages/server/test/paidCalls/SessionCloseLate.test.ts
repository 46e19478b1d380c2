import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import { SESSION_GRACE_MS } from "@gateway/domain/chain/SessionVoucher"
import { signIn, withOwner } from "@gateway/client"
import { AtomicAmount } from "@gateway/domain/Amount"
import { ObjectId } from "@gateway/domain/SuiAddress"
import { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import { ClockJumps } from "../support/ClockJumps.ts"
import { gatewayFor } from "../support/PaidEnv.ts"
import { payWithVoucher, poolBalance, sessionOnChain, voucherSignature } from "../support/SessionByHand.ts"
import { PRICE, sessionScenario } from "../support/SessionScenario.ts"
import { Upstream } from "../support/Upstream.ts"

const env = Layer.unwrap(Effect.map(Upstream, (upstream) => gatewayFor([upstream.url]))).pipe(
  Layer.provideMerge(Upstream.layer),
  Layer.provideMerge(ClockJumps.layer)
)

const DAY_MS = 86_400_000

/**
 * A session whose final voucher was taken, but whose `claim_and_close` did not go through before its claims ended
 * (the chain unreachable for that long): the module then refuses the final voucher for good, so the gateway must
 * end it with `close_session`, or the deposit stays locked in a session no round can close.
 */
describe("a session closing too late for its final voucher", () => {
  layer(env, { excludeTestServices: true, timeout: 120_000 })((it) => {
    it.effect("is ended with close_session once its claims are over: the deposit goes back to the pool", () =>
      Effect.gen(function*() {
        const s = yield* sessionScenario({ budget: 10_000n, deposit: 10n * PRICE, expiresInMs: DAY_MS })
        for (const cumulative of [PRICE, 2n * PRICE]) {
          assert.strictEqual((yield* payWithVoucher(s.entry.resourceUrl, s.offer, s.session, cumulative)).status, 200)
        }
        const poolBefore = yield* poolBalance(s.pool.objectId)
        const ledger = yield* LocalLedger
        // The final voucher is taken, but the chain cannot be reached to close the session now.
        yield* ledger.setFaults({ unavailable: true })
        const signature = yield* voucherSignature(s.session.sessionKey, s.session.sessionId, 2n * PRICE, true)
        const refused = yield* Effect.flip(s.client.paymentSessions.close({
          params: { id: ObjectId.make(s.session.sessionId) },
          payload: { cumulativeAmount: AtomicAmount.make((2n * PRICE).toString()), signature }
        }))
        assert.strictEqual(refused._tag, "UNAVAILABLE")
        const listedClosing = yield* s.client.delegatedSigners.sessions({ params: { id: s.signerId } }).pipe(s.asOwner)
        assert.strictEqual(listedClosing.sessions[0]?.state, "closing")
        // The outage outlasts the session and its grace: the final voucher can no longer be presented on chain.
        // Time passes for the gateway (its clock) and for the chain (the ledger's clock).
        const outage = DAY_MS + Number(SESSION_GRACE_MS) + 5 * 60_000
        yield* (yield* ClockJumps).jump(outage)
        yield* ledger.setFaults({ unavailable: false, clockAheadMs: outage })
        // A day later the owner's sign-in has expired: a fresh one reads the listing.
        const asOwner = withOwner((yield* signIn(s.client, s.owner)).authorization)
        const listed = yield* s.client.delegatedSigners.sessions({ params: { id: s.signerId } }).pipe(
          asOwner,
          Effect.repeat({ until: (l) => l.sessions[0]?.state === "closed", schedule: Schedule.spaced("500 millis"), times: 40 })
        )
        assert.strictEqual(listed.sessions[0]?.state, "closed", "a round ended the session")
        assert.isUndefined(yield* sessionOnChain(s.session.sessionId), "the session object is gone")
        assert.strictEqual((yield* poolBalance(s.pool.objectId)) - poolBefore, 10n * PRICE, "the whole deposit went back: no claim was made in time")
      }))
  })
})
