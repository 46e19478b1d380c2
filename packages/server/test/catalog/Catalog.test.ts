import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { FetchLayer, type GatewayClient, makeApiClient, signIn, withOwner } from "@gateway/client"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { CoinType } from "@gateway/domain/CoinType"
import type { RegisterService } from "@gateway/domain/CatalogEntry"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { failsWith } from "../support/Assertions.ts"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"

const CREDENTIAL = "seller-token-for-catalog-tests"
/** The upstream every service here names: allow-listed, as an operator names a local upstream. */
const UPSTREAM = "127.0.0.1:9"

const terms = (name: string, overrides: Partial<RegisterService> = {}): RegisterService => ({
  name,
  description: `${name} answers one question per call`,
  method: "GET",
  path: "/v1/answer",
  price: PositiveAtomicAmount.make("2500"),
  asset: CoinType.make("0x2::sui::SUI"),
  decimals: 9,
  payTo: SuiAddress.make(new Ed25519Keypair().toSuiAddress()),
  upstreamUrl: `http://${UPSTREAM}/answer`,
  upstreamCredential: Redacted.make(CREDENTIAL),
  ...overrides
})

const seller = (client: GatewayClient) =>
  Effect.map(signIn(client, new Ed25519Keypair()), (session) => withOwner(session.authorization))

describe("catalog", () => {
  // Room for the pagination test's 253 services of one seller; the per-seller bounds have tests of their own (security/catalog-flood).
  layer(Layer.mergeAll(layerTestServer({ upstreamAllowHosts: [UPSTREAM], sellerMaxLive: 300 }), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("registers a draft, activates it, and serves it to callers without a session", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const asSeller = yield* seller(client)
        const draft = yield* client.sellers.register({ payload: terms("Weather Oracle") }).pipe(asSeller)
        assert.strictEqual(draft.service.status, "draft")
        assert.strictEqual(draft.management.hasUpstreamCredential, true)
        const id = draft.service.id
        yield* failsWith(client.services.get({ params: { id } }), "NOT_FOUND")

        const live = yield* client.sellers.activate({ params: { id } }).pipe(asSeller)
        assert.strictEqual(live.service.status, "live")
        assert.strictEqual(live.service.activeRevision, 1)
        assert.strictEqual(live.service.resourceUrl, `${baseUrl}/v1/pay/${id}`)
        assert.strictEqual(live.service.network, "sui:localnet")
        assert.deepStrictEqual(live.service.dialects, ["mpp", "x402"])

        const entry = yield* client.services.get({ params: { id } })
        assert.deepStrictEqual(entry, live.service)
        const page = yield* client.services.list({ query: { q: "WEATHER orac" } })
        assert.isTrue(page.services.some((s) => s.id === id))
        const markdown = yield* client.services.markdown({ params: { id } })
        assert.include(markdown, "# Weather Oracle")
        assert.include(markdown, "`2500` atomic units")
        yield* failsWith(client.sellers.activate({ params: { id } }).pipe(asSeller), "CONFLICT")

        const first = yield* Effect.promise(() => fetch(`${baseUrl}/v1/services/${id}`))
        const etag = first.headers.get("etag")
        assert.isNotNull(etag)
        assert.strictEqual(first.headers.get("cache-control"), "public, max-age=5")
        const again = yield* Effect.promise(() => fetch(`${baseUrl}/v1/services/${id}`, { headers: { "if-none-match": etag ?? "" } }))
        assert.strictEqual(again.status, 304)
        const amongOthers = yield* Effect.promise(() => fetch(`${baseUrl}/v1/services/${id}`, { headers: { "if-none-match": `"stale", ${etag ?? ""}` } }))
        assert.strictEqual(amongOthers.status, 304)
        const stale = yield* Effect.promise(() => fetch(`${baseUrl}/v1/services/${id}`, { headers: { "if-none-match": `W/"stale"` } }))
        assert.strictEqual(stale.status, 200)
        const list = yield* Effect.promise(() => fetch(`${baseUrl}/v1/services?q=weather`))
        assert.isNotNull(list.headers.get("etag"))
      }))

    it.effect("keeps live terms until a new revision is activated, and only the owner manages a service", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const asSeller = yield* seller(client)
        const asOther = yield* seller(client)
        const { service } = yield* client.sellers.register({ payload: terms("Price Feed") }).pipe(asSeller)
        yield* client.sellers.activate({ params: { id: service.id } }).pipe(asSeller)
        yield* failsWith(client.sellers.activate({ params: { id: service.id } }).pipe(asOther), "NOT_FOUND")
        yield* failsWith(client.sellers.manage({ params: { id: service.id } }).pipe(asOther), "NOT_FOUND")

        const edited = yield* client.sellers.edit({
          params: { id: service.id },
          payload: terms("Price Feed", { price: PositiveAtomicAmount.make("9999") })
        }).pipe(asSeller)
        assert.strictEqual(edited.management.draftRevision, 2)
        const editedAgain = yield* client.sellers.edit({
          params: { id: service.id },
          payload: terms("Price Feed", { price: PositiveAtomicAmount.make("9999") })
        }).pipe(asSeller)
        assert.strictEqual(editedAgain.management.draftRevision, 2, "a draft is rewritten, not stacked, before activation")
        assert.strictEqual((yield* client.services.get({ params: { id: service.id } })).price, "2500")
        const activated = yield* client.sellers.activate({ params: { id: service.id } }).pipe(asSeller)
        assert.strictEqual(activated.service.activeRevision, 2)
        assert.strictEqual((yield* client.services.get({ params: { id: service.id } })).price, "9999")
      }))

    it.effect("refuses invalid fields with INVALID naming the path, and unsupported assets", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { authorization } = yield* signIn(client, new Ed25519Keypair())
        const bad: ReadonlyArray<[string, unknown]> = [
          ["price", "0"],
          ["price", "1.5"],
          ["price", "18446744073709551616"],
          ["payTo", "0x12"],
          ["upstreamUrl", "ftp://example.com"],
          ["method", "TRACE"],
          ["rail", "allowance"],
          ["asset", "SUI"],
          ["name", "two\nlines"],
          ["upstreamUrl", "http://127.0.0.1:10/answer"],
          ["upstreamCredential", "two words"],
          ["settlement", "before_answer"]
        ]
        for (const [field, value] of bad) {
          const response = yield* Effect.promise(() =>
            fetch(`${baseUrl}/v1/register`, {
              method: "POST",
              headers: { authorization, "content-type": "application/json" },
              body: JSON.stringify({ ...terms("Bad"), [field]: value })
            }).then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> }))
          )
          assert.strictEqual(response.status, 400, field)
          assert.strictEqual(response.body.code, "INVALID", field)
          assert.match(String(response.body.reason), new RegExp(`^body\\.${field}`), field)
        }
        yield* failsWith(
          client.sellers.register({ payload: terms("Gold", { asset: CoinType.make(`0x${"9".repeat(64)}::gold::GOLD`) }) })
            .pipe(withOwner(authorization)),
          "UNSUPPORTED_ASSET"
        )
      }))

    it.effect("settles after the answer unless the seller asks before forwarding, and then the 402 offers upfront payment only", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const asSeller = yield* seller(client)
        const sql = yield* SqlClient.SqlClient
        const live = (body: RegisterService) =>
          Effect.gen(function*() {
            const { service } = yield* client.sellers.register({ payload: body }).pipe(asSeller)
            yield* client.sellers.activate({ params: { id: service.id } }).pipe(asSeller)
            return service.id
          })
        const storedTerms = (id: string) =>
          Effect.map(sql<{ terms: string }>`SELECT terms FROM service_revisions WHERE service_id = ${id} ORDER BY revision DESC LIMIT 1`, (rows) =>
            JSON.parse(rows[0]?.terms ?? "{}") as Record<string, unknown>)
        const schemes = (id: string) =>
          Effect.promise(async () => {
            const body = await (await fetch(`${baseUrl}/v1/pay/${id}`)).json() as { accepts: ReadonlyArray<{ scheme: string }> }
            return body.accepts.map((offer) => offer.scheme)
          })

        // Left out, it is after_answer, and the revision's terms say so explicitly.
        const unnamed = yield* live(terms("Settles by default"))
        assert.strictEqual((yield* client.services.get({ params: { id: unnamed } })).settlement, "after_answer")
        assert.strictEqual((yield* storedTerms(unnamed))["settlement"], "after_answer")
        for (const settlement of ["after_answer", "before_forwarding"] as const) {
          const id = yield* live(terms(`Settles ${settlement}`, { settlement }))
          assert.strictEqual((yield* client.services.get({ params: { id } })).settlement, settlement)
          assert.strictEqual((yield* client.sellers.manage({ params: { id } }).pipe(asSeller)).service.settlement, settlement)
          assert.include(yield* client.services.markdown({ params: { id } }), `| settlement | \`${settlement}\` |`)
          // Settled before forwarding: paid upfront only, so the money is on chain before the seller is called.
          assert.deepStrictEqual(yield* schemes(id), settlement === "after_answer" ? ["exact", "sui-delegate", "sui-session"] : ["sui-delegate", "sui-session"])
        }

        // An edit names it anew, as every term: the next revision settles before forwarding.
        yield* client.sellers.edit({ params: { id: unnamed }, payload: terms("Settles by default", { settlement: "before_forwarding" }) }).pipe(asSeller)
        assert.strictEqual((yield* client.services.get({ params: { id: unnamed } })).settlement, "after_answer", "the active revision still serves")
        yield* client.sellers.activate({ params: { id: unnamed } }).pipe(asSeller)
        assert.strictEqual((yield* client.services.get({ params: { id: unnamed } })).settlement, "before_forwarding")

        // A revision stored before the option names none: it reads after_answer.
        const { service: old } = yield* client.sellers.register({ payload: terms("Stored before", { settlement: "before_forwarding" }) }).pipe(asSeller)
        yield* sql`UPDATE service_revisions SET terms = (terms::jsonb - 'settlement')::text WHERE service_id = ${old.id}`
        assert.notProperty(yield* storedTerms(old.id), "settlement")
        yield* client.sellers.activate({ params: { id: old.id } }).pipe(asSeller)
        assert.strictEqual((yield* client.services.get({ params: { id: old.id } })).settlement, "after_answer")
        assert.deepStrictEqual(yield* schemes(old.id), ["exact", "sui-delegate", "sui-session"])
      }))

    it.effect("never returns the credential on any route", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { authorization } = yield* signIn(client, new Ed25519Keypair())
        const { service } = yield* client.sellers.register({ payload: terms("Secretive") }).pipe(withOwner(authorization))
        yield* client.sellers.activate({ params: { id: service.id } }).pipe(withOwner(authorization))
        for (
          const path of [
            `/v1/services/${service.id}`,
            `/v1/services/${service.id}.md`,
            `/v1/services/${service.id}/manage`,
            "/v1/services?q=secretive",
            "/llms.txt",
            "/SKILL.md",
            "/.well-known/mcp.json",
            "/openapi.json"
          ]
        ) {
          const text = yield* Effect.promise(() => fetch(`${baseUrl}${path}`, { headers: { authorization } }).then((r) => r.text()))
          assert.notInclude(text, CREDENTIAL, path)
        }
      }))

    it.effect("paginates 250 live services with no duplicates or gaps while new ones are inserted", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const asSeller = yield* seller(client)
        const tag = `paginate${Date.now()}`
        const publish = (i: number) =>
          Effect.flatMap(client.sellers.register({ payload: terms(`${tag} service ${i}`) }).pipe(asSeller), ({ service }) =>
            Effect.as(client.sellers.activate({ params: { id: service.id } }).pipe(asSeller), service.id))
        const initial = yield* Effect.forEach(Array.from({ length: 250 }, (_, i) => i), publish, { concurrency: 8 })
        const seen: Array<string> = []
        let cursor: string | undefined
        let pages = 0
        do {
          const page = yield* client.services.list({ query: cursor === undefined ? { q: tag, limit: 40 } : { q: tag, limit: 40, cursor } })
          seen.push(...page.services.map((s) => s.id))
          cursor = page.nextCursor ?? undefined
          if (pages++ < 3) yield* publish(1000 + pages)
        } while (cursor !== undefined)
        assert.strictEqual(new Set(seen).size, seen.length)
        for (const id of initial) assert.include(seen, id)
        assert.strictEqual(seen.length, 253)
        const count = (yield* client.services.list({ query: { q: tag, limit: 1 } })).count
        assert.strictEqual(count, 253)
      }))
  })
})
