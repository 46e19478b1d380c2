import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { makeApiClient } from "@gateway/client"
import { defaults } from "../../src/Config.ts"
import { BaseUrl, StoreSwitch, SwitchableStore } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"
import { call, sellerEnv, sellerSession, serviceOf, termsJson } from "../support/SellerEnv.ts"

/** The lines of `/llms.txt` that list a service. */
const serviceLines = (llms: string) => llms.split("\n").filter((line) => line.startsWith("- [svc_"))

describe("one seller cannot flood the catalog", () => {
  layer(sellerEnv(), { excludeTestServices: true })((it) => {
    it.effect("300 registrations and activations by one wallet stop at the configured bounds, with CONFLICT naming the bound", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const upstream = yield* Upstream
        const seller = yield* sellerSession(yield* makeApiClient(baseUrl), baseUrl)
        const outcomes = yield* Effect.forEach(Array.from({ length: 300 }, (_, i) => i), (i) =>
          Effect.gen(function*() {
            const registered = yield* seller.register(termsJson(`Flood ${i}`, upstream.url))
            if (registered.status !== 200) return { registered, activated: undefined }
            return { registered, activated: yield* seller.activate(serviceOf(registered).id) }
          }), { concurrency: 10 })
        const live = outcomes.filter((o) => o.activated?.status === 200).length
        const drafts = outcomes.filter((o) => o.registered.status === 200 && o.activated?.status !== 200).length
        assert.strictEqual(live, defaults.sellerMaxLive)
        assert.strictEqual(drafts, defaults.sellerMaxDrafts)
        for (const { registered, activated } of outcomes) {
          for (const answer of [registered, ...(activated === undefined ? [] : [activated])]) {
            if (answer.status === 200) continue
            assert.strictEqual(answer.status, 409, answer.text)
            assert.strictEqual(answer.body["code"], "CONFLICT")
            assert.oneOf(answer.body["reason"], ["seller_live_limit_reached", "seller_draft_limit_reached"])
          }
        }
        const listed = yield* call(`${baseUrl}/v1/services?q=flood&limit=200`)
        assert.strictEqual(listed.body["count"], defaults.sellerMaxLive)
      }))
  })

  layer(sellerEnv({ sellerMaxLive: 3, sellerMaxDrafts: 5 }), { excludeTestServices: true })((it) => {
    it.effect("concurrent registrations and activations never pass the bounds", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const upstream = yield* Upstream
        const client = yield* makeApiClient(baseUrl)
        const seller = yield* sellerSession(client, baseUrl)
        const registered = yield* Effect.forEach(Array.from({ length: 15 }, (_, i) => i), (i) =>
          seller.register(termsJson(`Raced ${i}`, upstream.url)), { concurrency: "unbounded" })
        const drafts = registered.filter((r) => r.status === 200).map((r) => serviceOf(r).id)
        assert.strictEqual(drafts.length, 5)
        assert.isTrue(registered.every((r) => r.status === 200 || r.body["reason"] === "seller_draft_limit_reached"))

        const activated = yield* Effect.forEach(drafts, seller.activate, { concurrency: "unbounded" })
        assert.strictEqual(activated.filter((a) => a.status === 200).length, 3)
        assert.isTrue(activated.every((a) => a.status === 200 || a.body["reason"] === "seller_live_limit_reached"))

        // A live service's edit is no new service: it activates whatever the bound.
        const live = drafts.find((_, i) => activated[i]?.status === 200) ?? ""
        assert.strictEqual((yield* seller.edit(live, termsJson("Raced, edited", upstream.url))).status, 200)
        assert.strictEqual((yield* seller.activate(live)).status, 200)
        // Another seller is bounded on its own.
        const other = yield* sellerSession(client, baseUrl)
        assert.strictEqual((yield* other.register(termsJson("Other", upstream.url))).status, 200)
      }))
  })

  layer(
    sellerEnv({ llmsTxtMaxServices: 5 }, { store: SwitchableStore }).pipe(Layer.provideMerge(SwitchableStore)),
    { excludeTestServices: true }
  )((it) => {
    it.effect("/llms.txt lists at most llmsTxtMaxServices and links to the rest, from a cache the catalog's changes clear", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const upstream = yield* Upstream
        const store = yield* StoreSwitch
        const client = yield* makeApiClient(baseUrl)
        const publish = (seller: Effect.Success<ReturnType<typeof sellerSession>>, i: number) =>
          Effect.flatMap(seller.register(termsJson(`Listed ${String(i).padStart(3, "0")}`, upstream.url)), (r) => seller.activate(serviceOf(r).id))
        const sizes: Array<number> = []
        for (let round = 0; round < 4; round++) {
          const seller = yield* sellerSession(client, baseUrl)
          yield* Effect.forEach(Array.from({ length: 5 }, (_, i) => round * 5 + i), (i) => publish(seller, i))
          const llms = yield* call(`${baseUrl}/llms.txt`)
          assert.strictEqual(llms.status, 200)
          assert.lengthOf(serviceLines(llms.text), 5, `round ${round}`)
          if (round > 0) {
            assert.include(llms.text, `${baseUrl}/v1/services?limit=5&cursor=`)
            assert.include(llms.text, `${(round + 1) * 5} live services`)
          }
          sizes.push(llms.text.length)
        }
        // Past the bound only the count's digits change.
        assert.isAtMost(Math.max(...sizes.slice(1)) - Math.min(...sizes.slice(1)), 4, JSON.stringify(sizes))

        // A read is served from the cache: the store going away does not reach it for now.
        yield* store.down
        const cached = yield* call(`${baseUrl}/llms.txt`)
        yield* store.up
        assert.strictEqual(cached.status, 200)
      }))
  })
})
