import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** What the replicas get as UPSTREAM_TIMEOUT_MS: the loopback seller answers at once, and the gateway's recovery waits four of these. */
export const UPSTREAM_TIMEOUT_MS = 2_000
/** The gateway ends a sign-first forward still in flight after 4 upstream timeouts, looking every 5 s (RecoverSignedPayments.ts, PaidCalls.ts). */
export const RECOVERY_BOUND_MS = 4 * UPSTREAM_TIMEOUT_MS + 2 * 5_000 + 5_000

export interface Recovery {
  /** Sign-first payments in flight (forwarding or settling) once the lanes stopped: what the killed replica left. */
  readonly unsettledAtEnd: number
  /** Still in flight when the wait ended: the gateway's recovery did not end them in time. */
  readonly left: number
  readonly waitedSeconds: number
}

/**
 * Waits for the gateway itself to end what the SIGKILL left half-way: a paid call forwarding when its replica
 * died has a `forwarding` row no request will finish, which every replica's recovery releases (or, once the
 * seller had answered, settles) once it is stale. The check runs after that, on a store at rest.
 */
export const awaitRecovery = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const unsettled = Effect.map(
    sql<{ n: string | number }>`SELECT count(*) AS n FROM payments WHERE flow = 'sign_first' AND status IN ('forwarding', 'settling')`,
    (rows) => Number(rows[0]?.n ?? 0)
  )
  const started = Date.now()
  const unsettledAtEnd = yield* unsettled
  let left = unsettledAtEnd
  while (left > 0 && Date.now() - started < RECOVERY_BOUND_MS) {
    yield* Effect.sleep(500)
    left = yield* unsettled
  }
  return { unsettledAtEnd, left, waitedSeconds: (Date.now() - started) / 1000 } satisfies Recovery
})
