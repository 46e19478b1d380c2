import { Effect, Layer, Option } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { Api } from "@gateway/domain/api/Api"
import type { SponsorHealth } from "@gateway/domain/api/System"
import { Chain } from "@gateway/chain/Chain"
import { AppConfig } from "../Config.ts"
import { Sponsorship } from "../sponsorship/Sponsorship.ts"
import { Readiness } from "../storage/Readiness.ts"

export const SystemHandlers = HttpApiBuilder.group(
  Api,
  "system",
  Effect.fn(function*(handlers) {
    const sql = yield* SqlClient.SqlClient
    const chain = yield* Chain
    const sponsorship = yield* Sponsorship
    const readiness = yield* Readiness
    const floorMist = String((yield* AppConfig).sponsorBalanceFloorMist)
    // The store probe reads a table of ours, so a reachable server with our schema gone reads as down.
    const status = <A, E>(probe: Effect.Effect<A, E>) =>
      probe.pipe(Effect.timeout("2 seconds"), Effect.match({ onFailure: () => "down" as const, onSuccess: () => "up" as const }))
    // The sponsor's funds as last read (cached), reported only when they need its operator: below the floor, or unreadable.
    const sponsor = sponsorship.sponsorFunds.pipe(
      Effect.timeout("2 seconds"),
      Effect.match({
        onFailure: (): SponsorHealth | undefined => (Option.isSome(sponsorship.sponsorAddress) ? { status: "unknown", floorMist } : undefined),
        onSuccess: (funds): SponsorHealth | undefined =>
          Option.isSome(funds) && funds.value.status === "below_floor"
            ? { status: "below_floor", balanceMist: funds.value.balanceMist.toString(), floorMist: funds.value.floorMist.toString() }
            : undefined
      })
    )
    return handlers.handle("live", () => Effect.succeed({ ok: true as const })).handle("ready", () => readiness.check).handle("health", () =>
      Effect.map(
        Effect.all([status(sql`SELECT 1 FROM effect_sql_migrations LIMIT 1`), status(chain.health), sponsor], { concurrency: 3 }),
        ([store, chainStatus, sponsorHealth]) => {
          const body = {
            ok: store === "up" && chainStatus === "up",
            store,
            chain: chainStatus,
            network: chain.network,
            ...(sponsorHealth === undefined ? {} : { sponsor: sponsorHealth })
          }
          // A load balancer reads the status, not the body: a replica whose store or chain is down must not get traffic.
          // A sponsor below its floor is not such a replica: only the gas station refuses, so it stays 200.
          return body.ok ? body : HttpServerResponse.jsonUnsafe(body, { status: 503 })
        }
      ))
  })
).pipe(Layer.provide(Readiness.layer))
