import { createHash, randomBytes } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { Context, Effect, Layer, Option, Queue, Schedule, type Scope } from "effect"

/**
 * The PostgreSQL channel the replicas on one store listen on; its payload is a service id.
 * Channels are per database, stores per schema: the schema's name is in the channel, so a
 * gateway on another schema of the same database (a test run, another deployment) never
 * empties this one's reads. Hashed, as a channel name has at most 63 bytes.
 */
const channelOf = (schema: string) => `gateway_catalog_changed_${createHash("sha256").update(schema).digest("hex").slice(0, 16)}`

/**
 * A notice's payload: the announcing replica, then the service id. A replica
 * has told its own listeners before it announces, so it skips its own notice:
 * heard late, it would clear reads made after the change for nothing (and a
 * read made while the store is away would find nothing kept). A payload
 * without a replica (an older replica's) is another's.
 */
const noticeOf = (replica: string, serviceId: string) => `${replica}:${serviceId}`

const heardFrom = (payload: string) => {
  const at = payload.indexOf(":")
  return at < 0 ? { replica: undefined, serviceId: payload } : { replica: payload.slice(0, at), serviceId: payload.slice(at + 1) }
}

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

      const schema = yield* Option.match(remote, {
        onNone: () => Effect.succeed("public"),
        onSome: (client) => Effect.map(client<{ schema: string }>`SELECT current_schema() AS schema`, (rows) => rows[0]?.schema ?? "public")
      })
      const channel = channelOf(schema)
      const self = randomBytes(8).toString("hex")
      const hearNotice = (payload: string) => {
        const { replica, serviceId } = heardFrom(payload)
        if (replica !== self) tell(serviceId)
      }

      if (Option.isSome(remote)) {
        const hear = Effect.scoped(Effect.gen(function*() {
          const notifications = yield* remote.value.listen(channel)
          // Whatever changed while no connection listened went unheard.
          tell(undefined)
          return yield* Effect.forever(Effect.map(Queue.take(notifications), (n) => hearNotice(n.payload)))
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
                client.notify(channel, noticeOf(self, serviceId)).pipe(Effect.catch((error) => Effect.logWarning("catalog change not announced to other replicas", error)))
            }))
          ),
        subscribe: (listener) => Effect.acquireRelease(Effect.sync(() => listeners.add(listener)), () => Effect.sync(() => listeners.delete(listener))).pipe(Effect.asVoid)
      })
    })
  )
}
