import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { Api } from "@gateway/domain/api/Api"
import { Chain } from "@gateway/chain/Chain"

export const SystemHandlers = HttpApiBuilder.group(
  Api,
  "system",
  Effect.fn(function*(handlers) {
    const sql = yield* SqlClient.SqlClient
    const chain = yield* Chain
    // The store probe reads a table of ours, so a reachable server with our schema gone reads as down.
    const status = <A, E>(probe: Effect.Effect<A, E>) =>
      probe.pipe(Effect.timeout("2 seconds"), Effect.match({ onFailure: () => "down" as const, onSuccess: () => "up" as const }))
    return handlers.handle("health", () =>
      Effect.map(Effect.all([status(sql`SELECT 1 FROM effect_sql_migrations LIMIT 1`), status(chain.health)], { concurrency: 2 }), ([store, chainStatus]) => {
        const body = { ok: store === "up" && chainStatus === "up", store, chain: chainStatus, network: chain.network }
        // A load balancer reads the status, not the body: a replica whose store or chain is down must not get traffic.
        return body.ok ? body : HttpServerResponse.jsonUnsafe(body, { status: 503 })
      }))
  })
)
