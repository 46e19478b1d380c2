import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Config, Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { FetchLayer, type GatewayClient, makeApiClient, signIn, withOwner } from "@gateway/client"
import type { RegisterService } from "@gateway/domain/CatalogEntry"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { CatalogChanges } from "../../src/catalog/CatalogChanges.ts"
import { READ_TTL_MS } from "../../src/catalog/ServiceReadCache.ts"
import * as Database from "../../src/storage/Database.ts"
import { challengeOf } from "../support/PayByHand.ts"
import { amount, SUI } from "../support/Scenario.ts"
import { layerReplicas, ReplicaA, ReplicaB } from "../support/Replicas.ts"
import { BaseUrl, freshSchema, layerTestServer, testConfig } from "../support/TestServer.ts"

const terms = (name: string, price: bigint): RegisterService => ({
  name,
  description: `${name} answers one question per call`,
  method: "GET",
  path: "/v1/answer",
  price: amount(price),
  asset: SUI,
  decimals: 9,
  payTo: SuiAddress.make(new Ed25519Keypair().toSuiAddress()),
  upstreamUrl: "http://127.0.0.1:9/answer"
})

/** What a caller reads of one service: its JSON's name, its page's heading, the names a search for it lists, and the price its 402 asks. */
const publicReads = (origin: string, id: string, q: string) =>
  Effect.gen(function*() {
    const reads = yield* Effect.promise(async () => {
      const entry = await (await fetch(`${origin}/v1/services/${id}`)).json() as { name: string }
      const page = await (await fetch(`${origin}/v1/services/${id}.md`)).text()
      const listing = await (await fetch(`${origin}/v1/services?q=${encodeURIComponent(q)}`)).json() as { services: Array<{ name: string }> }
      return { entry: entry.name, page: page.split("\n")[0], listing: listing.services.map((s) => s.name) }
    })
    const { terms } = yield* challengeOf(`${origin}/v1/pay/${id}`)
    return { ...reads, challenge: terms.amount }
  })

const readsOf = (name: string, price: bigint) => ({ entry: name, page: `# ${name}`, listing: [name], challenge: price.toString() })

/** A live service of a new seller, and how that seller edits and activates it again. */
const liveService = (client: GatewayClient, name: string) =>
  Effect.gen(function*() {
    const asSeller = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
    const { service } = yield* client.sellers.register({ payload: terms(name, 2500n) }).pipe(asSeller)
    yield* client.sellers.activate({ params: { id: service.id } }).pipe(asSeller)
    const republish = (renamed: string) =>
      client.sellers.edit({ params: { id: service.id }, payload: terms(renamed, 3000n) }).pipe(
        Effect.andThen(client.sellers.activate({ params: { id: service.id } })),
        asSeller
      )
    return { id: service.id, republish }
  })

/**
 * Changes the live name and price in the store behind the catalog's back, as no
 * gateway would: a read still answering the old name or price afterwards was answered
 * from memory, not from the store.
 */
const renameInStore = (id: string, from: string, to: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE service_revisions SET terms = replace(replace(terms, ${from}, ${to}), '"2500"', '"2600"') WHERE service_id = ${id}`
  }).pipe(Effect.orDie)

describe("the catalog's read cache on one replica", () => {
  layer(Layer.mergeAll(layerTestServer(), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("keeps a service's page, its .md, a search and its 402 terms until the catalog publishes a change, then answers the change at once", () =>
      Effect.gen(function*() {
        const origin = yield* BaseUrl
        const tag = `cached${Date.now()}`
        const { id, republish } = yield* liveService(yield* makeApiClient(origin), `${tag} before`)
        assert.deepStrictEqual(yield* publicReads(origin, id, tag), readsOf(`${tag} before`, 2500n))
        yield* renameInStore(id, `${tag} before`, `${tag} behind`)
        assert.deepStrictEqual(yield* publicReads(origin, id, tag), readsOf(`${tag} before`, 2500n), "kept reads are answered from memory")
        yield* republish(`${tag} after`)
        assert.deepStrictEqual(yield* publicReads(origin, id, tag), readsOf(`${tag} after`, 3000n))
      }))
  })
})

/** Two gateway replicas on one PostgreSQL and one chain, as two processes behind a load balancer would be. */
const Replicas = layerReplicas(testConfig).pipe(Layer.orDie)

/** Reads on `origin` until they show `name`, for at most `withinMs`; what they showed last. */
const readsUntil = (origin: string, id: string, q: string, name: string, withinMs: number) =>
  Effect.gen(function*() {
    const deadline = Date.now() + withinMs
    let reads = yield* publicReads(origin, id, q)
    while (reads.entry !== name && Date.now() < deadline) {
      yield* Effect.sleep("5 millis")
      reads = yield* publicReads(origin, id, q)
    }
    return reads
  })

describe.runIf(process.env["TEST_DATABASE_URL"] !== undefined)("the catalog's read cache across replicas on PostgreSQL", () => {
  layer(Layer.mergeAll(Replicas, FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("an edit activated on one replica drops the other replica's kept reads through LISTEN/NOTIFY", () =>
      Effect.gen(function*() {
        const [a, b] = [yield* ReplicaA, yield* ReplicaB]
        const tag = `replicated${Date.now()}`
        const { id, republish } = yield* liveService(yield* makeApiClient(a), `${tag} before`)
        assert.deepStrictEqual(yield* publicReads(b, id, tag), readsOf(`${tag} before`, 2500n))
        yield* renameInStore(id, `${tag} before`, `${tag} behind`)
        assert.deepStrictEqual(yield* publicReads(b, id, tag), readsOf(`${tag} before`, 2500n), "replica B answers its kept reads from memory")
        yield* republish(`${tag} after`)
        // The notice crosses PostgreSQL asynchronously, so B is given a moment: a thirtieth of the time its reads are kept.
        assert.deepStrictEqual(yield* readsUntil(b, id, tag, `${tag} after`, READ_TTL_MS / 30), readsOf(`${tag} after`, 3000n))
      }))
  })
})

/** The catalog's change notices of a gateway on another schema of the same PostgreSQL database. */
const OtherSchemaChanges = Layer.unwrap(
  Effect.gen(function*() {
    const url = yield* Config.Redacted("TEST_DATABASE_URL")
    return Layer.fresh(CatalogChanges.layer).pipe(Layer.provide(Database.layerPostgres(url, { schema: yield* freshSchema(url) })))
  })
).pipe(Layer.orDie)

describe.runIf(process.env["TEST_DATABASE_URL"] !== undefined)("the catalog's read cache beside another gateway's store on PostgreSQL", () => {
  layer(Layer.mergeAll(layerTestServer(), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("a change another schema's catalog announces, even for the same service id, leaves this gateway's kept reads alone", () =>
      Effect.gen(function*() {
        const origin = yield* BaseUrl
        const tag = `neighbour${Date.now()}`
        const { id } = yield* liveService(yield* makeApiClient(origin), `${tag} before`)
        assert.deepStrictEqual(yield* publicReads(origin, id, tag), readsOf(`${tag} before`, 2500n))
        yield* renameInStore(id, `${tag} before`, `${tag} behind`)
        const neighbour = yield* Layer.build(OtherSchemaChanges)
        yield* Context.get(neighbour, CatalogChanges).publish(id)
        // Notices cross PostgreSQL asynchronously: one that reached this gateway would have emptied its reads by now.
        yield* Effect.sleep(READ_TTL_MS / 30)
        assert.deepStrictEqual(yield* publicReads(origin, id, tag), readsOf(`${tag} before`, 2500n), "kept reads are still answered from memory")
      }).pipe(Effect.scoped))
  })
})
