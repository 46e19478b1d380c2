import { Data, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"

/** Any fixed key, paired with the schema's hash: replicas on one schema contend, replicas on two schemas do not. */
const LEDGER_WRITER_LOCK = 7_412_002

/** Start-up refused: another replica already runs LocalLedger on this database. */
export class LedgerWriterTaken extends Data.TaggedError("LedgerWriterTaken")<{ readonly message: string }> {}

/**
 * One writer of the local ledger: LocalLedger hands out object ids and
 * versions from memory, so two replicas journaling into one store would
 * diverge. The replica that holds this session-level advisory lock, on a
 * connection reserved for the layer's lifetime, is the only one that runs it;
 * another refuses to start. PostgreSQL only: PGlite serves one process, and
 * its single connection cannot be set aside.
 */
export const layerLedgerWriterLock = Layer.effectDiscard(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const connection = yield* sql.reserve
    const rows = yield* connection.execute(
      "SELECT pg_try_advisory_lock($1, hashtext(current_schema())) AS held",
      [LEDGER_WRITER_LOCK],
      undefined
    )
    if (!rows.some((row: { readonly held?: unknown }) => row.held === true)) {
      return yield* new LedgerWriterTaken({
        message: "another gateway replica already runs the local ledger on this database; run one local-mode replica, or use SUI_GRPC_URL"
      })
    }
    // Closing the reserved connection ends the session, which releases the lock; unlocking first makes the release explicit.
    yield* Effect.addFinalizer(() =>
      connection.execute("SELECT pg_advisory_unlock($1, hashtext(current_schema()))", [LEDGER_WRITER_LOCK], undefined).pipe(Effect.ignore)
    )
  })
)
