import { randomBytes } from "node:crypto"
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import { storeDecoded } from "./Codecs.ts"

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
      const keyNamed = SqlSchema.findOne({
        Request: Schema.String,
        Result: Schema.Struct({ key: Schema.String }),
        execute: (name) => sql`SELECT key FROM gateway_keys WHERE name = ${name}`
      })
      return GatewayKeyRepo.of({
        getOrCreate: (name) =>
          Effect.gen(function*() {
            yield* sql`INSERT INTO gateway_keys (name, key) VALUES (${name}, ${randomBytes(32).toString("base64")})
                ON CONFLICT (name) DO NOTHING`
            const { key } = yield* keyNamed(name)
            return new Uint8Array(Buffer.from(key, "base64"))
          }).pipe(storeDecoded, Effect.withSpan("GatewayKeyRepo.getOrCreate", { attributes: { "gateway_key.name": name } }))
      })
    })
  )
}
