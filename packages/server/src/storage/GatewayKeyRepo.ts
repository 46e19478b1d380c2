import { randomBytes } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import { storeUnavailable } from "./StoreErrors.ts"

/**
 * Keys the gateway makes for itself and every replica must share, kept in
 * the store: the first replica to ask creates one, the others read it.
 */
export class GatewayKeyRepo extends Context.Service<GatewayKeyRepo, {
  getOrCreate(name: string): Effect.Effect<Uint8Array, Unavailable>
}>()("@gateway/server/GatewayKeyRepo") {
  static readonly layer = Layer.effect(
    GatewayKeyRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return GatewayKeyRepo.of({
        getOrCreate: (name) =>
          Effect.gen(function*() {
            yield* sql`INSERT INTO gateway_keys (name, key) VALUES (${name}, ${randomBytes(32).toString("base64")})
                ON CONFLICT (name) DO NOTHING`
            const rows = yield* sql<{ key: string }>`SELECT key FROM gateway_keys WHERE name = ${name}`
            const key = rows[0]?.key
            if (key === undefined) return yield* Effect.die(new Error(`gateway key ${name} vanished after its insert`))
            return new Uint8Array(Buffer.from(key, "base64"))
          }).pipe(storeUnavailable)
      })
    })
  )
}
