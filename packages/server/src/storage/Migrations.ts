import { Effect, Layer } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import ownerSessions from "./migrations/0001_owner_sessions.ts"
import policies from "./migrations/0002_policies.ts"
import catalog from "./migrations/0003_catalog.ts"
import delegatedSigners from "./migrations/0004_delegated_signers.ts"
import ledgerJournal from "./migrations/0005_ledger_journal.ts"
import payments from "./migrations/0006_payments.ts"
import paidAnswers from "./migrations/0007_paid_answers.ts"
import sellerCredentials from "./migrations/0008_seller_credentials.ts"
import sessionHygiene from "./migrations/0009_session_hygiene.ts"
import paymentListings from "./migrations/0010_payment_listings.ts"
import paymentSnapshots from "./migrations/0011_payment_snapshots.ts"
import usageCounters from "./migrations/0012_usage_counters.ts"
import paymentsByDigest from "./migrations/0013_payments_by_digest.ts"
import sponsorship from "./migrations/0014_sponsorship.ts"
import grantWindows from "./migrations/0015_grant_windows.ts"
import signFirstPayments from "./migrations/0016_sign_first_payments.ts"
import paymentSessions from "./migrations/0017_payment_sessions.ts"

/** Every migration by id, in order: tests that need the store as an older gateway left it take a prefix. */
export const migrations = {
  "0001_owner_sessions": ownerSessions,
  "0002_policies": policies,
  "0003_catalog": catalog,
  "0004_delegated_signers": delegatedSigners,
  "0005_ledger_journal": ledgerJournal,
  "0006_payments": payments,
  "0007_paid_answers": paidAnswers,
  "0008_seller_credentials": sellerCredentials,
  "0009_session_hygiene": sessionHygiene,
  "0010_payment_listings": paymentListings,
  "0011_payment_snapshots": paymentSnapshots,
  "0012_usage_counters": usageCounters,
  "0013_payments_by_digest": paymentsByDigest,
  "0014_sponsorship": sponsorship,
  "0015_grant_windows": grantWindows,
  "0016_sign_first_payments": signFirstPayments,
  "0017_payment_sessions": paymentSessions
}

const loader = Migrator.fromRecord(migrations)

/** Any fixed key: every replica takes the same advisory lock around migrating. */
const MIGRATION_LOCK = 7_412_001

/**
 * Runs the versioned migrations at start-up. Two replicas starting at once
 * serialize on a transaction-scoped advisory lock, so the second finds the
 * work done and applies nothing.
 */
export const layerMigrations = Layer.effectDiscard(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const applied = yield* sql.withTransaction(
      Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
        return yield* Migrator.make({})({ loader })
      })
    )
    if (applied.length > 0) yield* Effect.logInfo("migrations applied", applied.map(([id, name]) => `${id}_${name}`))
  })
)
