import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { challengeOf, present, pay, refs } from "../support/PayByHand.ts"
import { Upstream } from "../support/Upstream.ts"
import { gatewayFor, paidService } from "../support/PaidEnv.ts"

const RETENTION_MS = 1_000
const SWEEP_MS = 100

/** A gateway whose only upstream is the recording one, keeping answers a second and sweeping every 100 ms. */
const sweepingEnv = Layer.unwrap(
  Effect.map(Upstream, (upstream) => gatewayFor([upstream.url], { paidAnswerRetentionMs: RETENTION_MS, storeSweepIntervalMs: SWEEP_MS }))
).pipe(Layer.provideMerge(Upstream.layer))

interface StoredPayment {
  readonly status: string
  readonly payer: string
  readonly amount: string
  readonly answered: boolean
  readonly upstreamStatus: number | null
  readonly answerContentType: string | null
  readonly answerBody: Uint8Array | null
}

/**
 * Threat: the store growing without bound. Every paid call keeps the seller's
 * answer (up to `upstreamMaxBodyBytes`) for its payer's retries; past
 * `paidAnswerRetentionMs` a periodic sweep drops the kept body, status and
 * content type, and keeps the payment's record, so a late retry is refused
 * with `paid_answer_expired` and the seller is not called again.
 */
describe("security: kept paid answers are swept after the retention window", () => {
  layer(sweepingEnv, { excludeTestServices: true })((it) => {
    it.effect("the sweep drops the answer, keeps the payment, and a late retry is refused without a forward", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const upstream = yield* Upstream
        const { entry, agentKey, manifest } = yield* paidService(upstream.url)
        const { terms, nonce } = yield* challengeOf(entry.resourceUrl)
        const digest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
        const again = present(entry.resourceUrl, terms, digest, { signer: agentKey })
        const stored = Effect.map(
          sql<StoredPayment>`SELECT status, payer, amount, answered_at IS NOT NULL AS answered, upstream_status, answer_content_type, answer_body
            FROM payments WHERE digest = ${digest}`,
          (rows) => rows[0]
        )

        const first = yield* again
        assert.strictEqual(first.status, 200)
        const calls = upstream.calls.length
        // Within the window the answer is kept, and sweeps running meanwhile leave it.
        yield* Effect.sleep(`${3 * SWEEP_MS} millis`)
        const kept = yield* stored
        assert.strictEqual(kept?.upstreamStatus, 200)
        assert.strictEqual(kept?.answerContentType, "application/json")
        assert.isNotNull(kept?.answerBody)

        // Past it, a sweep (not the next retry) drops the answer: polled for at most three seconds past the window.
        yield* Effect.sleep(`${RETENTION_MS} millis`)
        const swept = yield* Effect.retry(
          Effect.filterOrFail(stored, (row) => row?.answerBody === null, () => "still kept"),
          { schedule: Schedule.spaced(`${SWEEP_MS} millis`), times: 30 }
        ).pipe(Effect.orElseSucceed(() => undefined))
        assert.deepStrictEqual(swept, {
          status: "forwarded",
          payer: agentKey.toSuiAddress(),
          amount: "40",
          answered: true,
          upstreamStatus: null,
          answerContentType: null,
          answerBody: null
        })

        const late = yield* again
        assert.strictEqual(late.status, 409)
        assert.deepInclude(late.body, { ok: false, code: "CONFLICT", reason: "paid_answer_expired" })
        assert.strictEqual(upstream.calls.length, calls, "the seller is not called again")
      }))
  })
})
