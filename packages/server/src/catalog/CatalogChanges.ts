import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Option, Queue, Schedule, type Scope } from "effect"

/** The PostgreSQL channel every replica on one database listens on; its payload is a service id. */
const CHANNEL = "gateway_catalog_changed"

/** Called with the changed service's id, or undefined when any service may have changed (changes may have been missed). */
export type CatalogListener = (serviceId: string | undefined) => void

/**
 * LISTEN holds a connection of its own for as long as it listens: a pool of
 * one (PGlite's socket serves exactly one connection) has none to spare, and
 * it is then a single process whose own changes are heard in-process anyway.
 */
const canListen = (client: PgClient.PgClient) =>
  "maxConnections" in client.config && typeof client.config.maxConnections === "number" && client.config.maxConnections > 1

/**
 * The event the catalog publishes when a service changes (registered,
 * edited, activated): this replica's listeners hear it before `publish`
 * returns, so a change is visible to the request that made it; other
 * replicas on the same PostgreSQL hear it through `NOTIFY`.
 */
export class CatalogChanges extends Context.Service<CatalogChanges, {
  publish(serviceId: string): Effect.Effect<void>
  subscribe(listener: CatalogListener): Effect.Effect<void, never, Scope.Scope>
}>()("@gateway/server/CatalogChanges") {
  static readonly layer = Layer.effect(
    CatalogChanges,
    Effect.gen(function*() {
      const listeners = new Set<CatalogListener>()
      const tell = (serviceId: string | undefined) => {
        for (const listener of listeners) listener(serviceId)
      }
      const remote = Option.filter(yield* Effect.serviceOption(PgClient.PgClient), canListen)

      if (Option.isSome(remote)) {
        const hear = Effect.scoped(Effect.gen(function*() {
          const notifications = yield* remote.value.listen(CHANNEL)
          // Whatever changed while no connection listened went unheard.
          tell(undefined)
          return yield* Effect.forever(Effect.map(Queue.take(notifications), (n) => tell(n.payload)))
        })).pipe(
          Effect.tapError((error) => Effect.sync(() => tell(undefined)).pipe(Effect.andThen(Effect.logWarning("catalog change listener lost its connection", error)))),
          Effect.retry(Schedule.spaced("1 second"))
        )
        yield* Effect.forkScoped(hear)
      }

      return CatalogChanges.of({
        publish: (serviceId) =>
          Effect.sync(() => tell(serviceId)).pipe(
            Effect.andThen(Option.match(remote, {
              onNone: () => Effect.void,
              // The change is committed already; a replica that misses this notice forgets its reads within their time to live.
              onSome: (client) =>
                client.notify(CHANNEL, serviceId).pipe(Effect.catch((error) => Effect.logWarning("catalog change not announced to other replicas", error)))
            }))
          ),
        subscribe: (listener) => Effect.acquireRelease(Effect.sync(() => listeners.add(listener)), () => Effect.sync(() => listeners.delete(listener))).pipe(Effect.asVoid)
      })
    })
  )
}
