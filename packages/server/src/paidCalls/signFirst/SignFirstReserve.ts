import { Data, Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import { storeUnavailable } from "../../storage/Codecs.ts"
import { type Reservation, type ReserveOutcome, UNSETTLED } from "./SignFirstRows.ts"

/** Advisory-lock namespace (any fixed key) for one grant's unsettled sign-first payments. */
const GRANT_RESERVATIONS_LOCK = 7_412_016

class Refused extends Data.TaggedError("Refused")<{ readonly outcome: ReserveOutcome }> {}

/**
 * Reserves a sign-first payment in one transaction: its row (digest PRIMARY KEY; one unsettled-or-settled payment
 * per nonce, a partial unique index), its holds (one row per owned object, PRIMARY KEY), and for a grant payment the
 * sum of the grant's unsettled payments, counted under an advisory lock on the grant so that replicas do not both
 * fit a payment into the same remainder. A payment whose seller failed (`not_charged`) is taken back instead.
 */
export const reservePayment = (sql: SqlClient.SqlClient) => {
  const refuse = (outcome: ReserveOutcome) => Effect.fail(new Refused({ outcome }))

  const insertRow = (r: Reservation) => {
    const c = r.claim
    return sql`INSERT INTO payments (digest, nonce, service_id, revision, service_name, asset, recipient, grant_object_id, grant_id,
          payer, amount, status, refusal, created_at, updated_at, flow, tx_bytes, signatures, sponsored, expires_epoch)
        VALUES (${c.digest}, ${c.nonce}, ${c.serviceId}, ${c.revision}, ${c.serviceName}, ${c.asset}, ${c.recipient},
          ${c.grantObjectId}, ${c.grantId}, ${c.payer}, ${c.amount}, 'forwarding', NULL, now(), now(), 'sign_first',
          ${Buffer.from(r.txBytes)}, ${JSON.stringify([r.signature])}::jsonb, ${r.sponsored}, ${r.expiresEpoch.toString()})
        ON CONFLICT DO NOTHING RETURNING digest`
  }

  const reserveIn = (r: Reservation) =>
    Effect.gen(function*() {
      const c = r.claim
      if (r.grantAvailable !== undefined) {
        yield* sql`SELECT pg_advisory_xact_lock(${GRANT_RESERVATIONS_LOCK}::int, hashtext(${c.grantObjectId}))`
        const [sum] = yield* sql<{ readonly reserved: string }>`
          SELECT COALESCE(SUM(amount::numeric), 0)::text AS reserved FROM payments
          WHERE grant_object_id = ${c.grantObjectId} AND flow = 'sign_first' AND status IN ${sql.in(UNSETTLED)} AND digest <> ${c.digest}`
        const reserved = BigInt(sum?.reserved ?? "0")
        if (reserved + BigInt(c.amount) > r.grantAvailable) yield* refuse({ _tag: "OverBudget", reserved, available: r.grantAvailable })
      }
      const inserted = yield* insertRow(r)
      if (inserted.length === 0) {
        // Taken back only from `not_charged`: the seller failed it, nothing was executed.
        const retaken = yield* sql`UPDATE payments SET status = 'forwarding', updated_at = now()
          WHERE digest = ${c.digest} AND flow = 'sign_first' AND status = 'not_charged' RETURNING digest`
        if (retaken.length === 0) {
          const [existing] = yield* sql<{ readonly status: string; readonly flow: string }>`
            SELECT status, flow FROM payments WHERE digest = ${c.digest}`
          if (existing === undefined) yield* refuse({ _tag: "ChallengeTaken" })
          else if (existing.flow === "sign_first" && UNSETTLED.some((s) => s === existing.status)) yield* refuse({ _tag: "InFlight" })
          else yield* refuse({ _tag: "Recorded" })
        }
      }
      for (const hold of r.holds) {
        const held = yield* sql`INSERT INTO payment_holds (hold, digest) VALUES (${hold}, ${c.digest}) ON CONFLICT DO NOTHING RETURNING hold`
        if (held.length === 0) yield* refuse({ _tag: "Overlap", hold })
      }
      return { _tag: "Reserved" } satisfies ReserveOutcome
    })

  const reserve = (r: Reservation): Effect.Effect<ReserveOutcome, Unavailable> =>
    sql.withTransaction(reserveIn(r)).pipe(
      // A unique violation is the nonce's index (the row insert skips the digest's conflict): the challenge is taken.
      Effect.catchIf(
        (e): e is Refused => e instanceof Refused,
        (e) => Effect.succeed(e.outcome)
      ),
      Effect.catchTag("SqlError", (error) =>
        error.reason._tag === "UniqueViolation" ? Effect.succeed<ReserveOutcome>({ _tag: "ChallengeTaken" }) : Effect.fail(error)
      ),
      storeUnavailable,
      Effect.withSpan("SignFirstRepo.reserve", { attributes: { "payment.digest": r.claim.digest } })
    )

  return reserve
}
