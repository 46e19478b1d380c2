import { assert, describe, it } from "@effect/vitest"
import { Config, Effect, Layer, Option } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import { PaymentRepo } from "../../src/paidCalls/PaymentRepo.ts"
import * as Database from "../../src/storage/Database.ts"
import { layerMigrations, migrations } from "../../src/storage/Migrations.ts"
import { freshSchema } from "../support/TestServer.ts"

/** The store as a gateway from before payments carried their snapshots left it. */
const beforeSnapshots = Migrator.fromRecord(Object.fromEntries(Object.entries(migrations).filter(([id]) => id < "0011")))

const Store = Layer.unwrap(
  Effect.gen(function*() {
    const url = yield* Config.option(Config.Redacted("TEST_DATABASE_URL"))
    if (Option.isNone(url)) return Database.layerPglite(Option.none())
    return Database.layerPostgres(url.value, { schema: yield* freshSchema(url.value) })
  })
)

const PAY_TO = "0x00000000000000000000000000000000000000000000000000000000000000aa"
const OURS = "0x2::ours::OURS"
const ASKED = "0x2::sui::SUI"
const at = "2026-01-01T00:00:00.000Z"

/** A live service whose revision 1 was paid twice: from a grant this gateway provisioned, and from a foreign one. */
const oldRows = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const terms = JSON.stringify({ name: "Answers", description: "d", method: "GET", path: "/a", price: "40", asset: ASKED, decimals: 9, payTo: PAY_TO })
  yield* sql`INSERT INTO services (id, owner_address, status, active_revision, created_at, updated_at)
      VALUES ('svc', '0xseller', 'live', 1, ${at}, ${at})`
  yield* sql`INSERT INTO service_revisions (service_id, revision, terms, upstream_url, created_at)
      VALUES ('svc', 1, ${terms}, 'https://seller.example/a', ${at})`
  yield* sql`INSERT INTO delegated_signers (id, owner_address, agent_address, name, profile_ids, policy_ids, on_chain_policy_ids,
        policy_rules, idempotency_key, request_hash, create_response, created_at, updated_at)
      VALUES ('signer-1', '0xowner', '0xagent', 'agent', '[]', '[]', '[]', '[]', 'key', 'hash', '{}', ${at}, ${at})`
  yield* sql`INSERT INTO grants (id, signer_id, position, coin_type, pool_id, session_cap, max_per_payment, expiry_ms, kind, status,
        grant_object_id, created_at, updated_at)
      VALUES ('grant-1', 'signer-1', 0, ${OURS}, 'pool', '1000', '100', '0', 0, 'active', 'obj-ours', ${at}, ${at})`
  for (const [digest, grantObject] of [["digest-ours", "obj-ours"], ["digest-foreign", "obj-foreign"]] as const) {
    yield* sql`INSERT INTO payments (digest, nonce, service_id, revision, grant_object_id, payer, amount, status, created_at, updated_at)
        VALUES (${digest}, ${`nonce-${digest}`}, 'svc', 1, ${grantObject}, '0xagent', '40', 'forwarded', ${at}, ${at})`
  }
})

describe("migration 0011: payments carry their snapshots", () => {
  it.live("backfills existing payments from the revision and grant they were made under, and the listings read them", () =>
    Effect.gen(function*() {
      const store = yield* Layer.build(Store)
      yield* Migrator.make({})({ loader: beforeSnapshots }).pipe(Effect.provide(store))
      yield* oldRows.pipe(Effect.provide(store))
      const migrated = yield* Layer.build(Layer.merge(Layer.fresh(layerMigrations), PaymentRepo.layer)).pipe(Effect.provide(store))
      const sql = yield* SqlClient.SqlClient.pipe(Effect.provide(store))
      const rows = yield* sql<Record<string, unknown>>`SELECT digest, service_name, asset, recipient, grant_id
          FROM payments ORDER BY digest`
      assert.deepStrictEqual(rows, [
        { digest: "digest-foreign", serviceName: "Answers", asset: ASKED, recipient: PAY_TO, grantId: null },
        { digest: "digest-ours", serviceName: "Answers", asset: OURS, recipient: PAY_TO, grantId: "grant-1" }
      ])

      // The listings read the backfilled columns, each on its index.
      const repo = yield* PaymentRepo.pipe(Effect.provide(migrated))
      const byGrants = yield* repo.listForGrants(["obj-ours"], 10, Option.none())
      assert.deepStrictEqual(byGrants.map((p) => [p.digest, p.serviceName, p.asset, p.grantId]), [["digest-ours", "Answers", OURS, "grant-1"]])
      const byService = yield* repo.listForService("svc", 10, Option.none())
      assert.deepStrictEqual(byService.map((p) => [p.digest, p.asset, p.recipient]), [["digest-ours", OURS, PAY_TO], ["digest-foreign", ASKED, PAY_TO]])
      const indexes = yield* sql<{ indexname: string }>`SELECT indexname FROM pg_indexes
          WHERE tablename = 'payments' AND schemaname = current_schema() ORDER BY indexname`
      const names = indexes.map((i) => i.indexname)
      assert.include(names, "payments_grant_listing")
      assert.include(names, "payments_service_listing")
    }).pipe(Effect.scoped))
})
