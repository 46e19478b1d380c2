import { randomBytes } from "node:crypto"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig } from "../../src/Config.ts"
import { layerStore } from "../../src/Server.ts"
import { GatewayKeyRepo } from "../../src/storage/GatewayKeyRepo.ts"
import { resealCredentials } from "../../src/upstream/ResealCredentials.ts"
import { SellerCredentials } from "../../src/upstream/SellerCredentials.ts"
import { TestStore, testConfig } from "../support/TestServer.ts"

const keyOf = () => randomBytes(32).toString("base64")
const OWNER = `0x${"a".repeat(64)}`

/** SellerCredentials as a gateway configured with `key` (and `previous`) has it, on the test's store. */
const credentialsUnder = (key: string, previous: ReadonlyArray<string> = []) =>
  SellerCredentials.layer.pipe(
    Layer.provide(GatewayKeyRepo.layer),
    Layer.provide(AppConfig.layer({ ...testConfig, credentialsKey: Option.some(Redacted.make(key)), credentialsKeysPrevious: previous.map((k) => Redacted.make(k)) }))
  )

/** A service with one revision whose upstream credential is `sealed`, written as the catalog writes it. */
const storedService = (serviceId: string, sealed: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO services (id, owner_address, status, created_at, updated_at) VALUES (${serviceId}, ${OWNER}, 'draft', now(), now())`
    yield* sql`INSERT INTO service_revisions (service_id, revision, terms, upstream_url, upstream_credential, created_at)
               VALUES (${serviceId}, 1, '{}', 'https://seller.example/x', ${sealed}, now())`
  })

const storedCredential = (serviceId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql<{ readonly upstreamCredential: string }>`SELECT upstream_credential FROM service_revisions WHERE service_id = ${serviceId}`, (rows) => rows[0]?.upstreamCredential ?? ""))

/**
 * Rotating CREDENTIALS_KEY: a gateway started with the new key and the old one in CREDENTIALS_KEY_PREVIOUS still
 * opens every seller's credential, and re-seals each under the new key; then the old key can go.
 */
describe("rotating CREDENTIALS_KEY", () => {
  layer(layerStore(TestStore), { excludeTestServices: true })((it) => {
    it.effect("the old key still opens what it sealed; the re-seal moves every credential to the new key, after which the old one is not needed", () =>
      Effect.gen(function*() {
        const [oldKey, newKey] = [keyOf(), keyOf()]
        const serviceId = `svc_rotation_${Date.now()}`
        const secret = Redacted.make("seller-secret")
        const sealedOld = yield* SellerCredentials.useSync((c) => c.seal(serviceId, OWNER, secret)).pipe(Effect.provide(credentialsUnder(oldKey)))
        yield* storedService(serviceId, sealedOld)

        // The new key alone cannot open it: this is what an unplanned key change does.
        const opensUnder = (key: string, previous: ReadonlyArray<string>) =>
          Effect.flatMap(storedCredential(serviceId), (sealed) =>
            SellerCredentials.useSync((c) => Option.map(c.open(serviceId, OWNER, sealed), Redacted.value)).pipe(Effect.provide(credentialsUnder(key, previous))))
        assert.isTrue(Option.isNone(yield* opensUnder(newKey, [])))
        assert.deepStrictEqual(yield* opensUnder(newKey, [oldKey]), Option.some("seller-secret"))

        const report = yield* resealCredentials().pipe(Effect.provide(credentialsUnder(newKey, [oldKey])))
        assert.isAtLeast(report.resealed, 1)
        assert.notStrictEqual(yield* storedCredential(serviceId), sealedOld)
        assert.deepStrictEqual(yield* opensUnder(newKey, []), Option.some("seller-secret"), "opens under the new key alone")
        assert.isTrue(Option.isNone(yield* opensUnder(oldKey, [])), "the old key opens nothing any more")
        const again = yield* resealCredentials().pipe(Effect.provide(credentialsUnder(newKey, [oldKey])))
        assert.strictEqual(again.resealed, 0, "a second pass finds nothing to move")
      }))
  })
})
