import { assert, describe, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { makeApiClient } from "@gateway/client"
import { X402Discovery } from "@gateway/domain/payment/X402Discovery"
import { liveService, paidCallEnv } from "../support/Scenario.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"

interface Operation {
  readonly summary?: string
  readonly description?: string
  readonly parameters?: ReadonlyArray<{ readonly name: string; readonly in: string }>
  readonly responses?: Record<string, { readonly headers?: Record<string, unknown> }>
  readonly "x-payment-info"?: Record<string, unknown>
}

const getJson = (url: string) => Effect.promise(() => fetch(url).then(async (r) => ({ status: r.status, body: await r.json() as unknown })))

describe("paid calls in the public documents", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("/openapi.json describes /v1/pay/{serviceId} (402, credential and receipt headers, both schemes, x-payment-info) and the gas station, and documents every operation", () =>
      Effect.gen(function*() {
        const { status, body } = yield* getJson(`${yield* BaseUrl}/openapi.json`)
        assert.strictEqual(status, 200)
        const paths = (body as { paths: Record<string, Record<string, Operation>> }).paths
        const pay = paths["/v1/pay/{serviceId}"]
        assert.sameMembers(Object.keys(pay ?? {}), ["get", "post", "put", "patch", "delete"])
        for (const [method, op] of Object.entries(pay ?? {})) {
          assert.includeMembers((op.parameters ?? []).map((p) => `${p.in}:${p.name}`), ["path:serviceId", "header:PAYMENT-SIGNATURE", "header:Authorization"], method)
          assert.includeMembers(Object.keys(op.responses?.["402"]?.headers ?? {}), ["PAYMENT-REQUIRED", "WWW-Authenticate", "Cache-Control"], method)
          assert.includeMembers(Object.keys(op.responses?.["200"]?.headers ?? {}), ["PAYMENT-RESPONSE", "Payment-Receipt"], method)
          assert.deepInclude(op["x-payment-info"] ?? {}, { protocols: ["x402", "mpp"], refunds: "none" }, method)
          const x402 = (op["x-payment-info"]?.["x402"] ?? {}) as { schemes?: ReadonlyArray<{ scheme: string }> }
          assert.deepStrictEqual((x402.schemes ?? []).map((s) => s.scheme), ["exact", "sui-delegate", "sui-session"], `${method}: sign-first first`)
          assert.includeMembers(Object.keys(op.responses ?? {}), ["400", "409", "502", "503"], method)
        }
        const gasStation = paths["/v1/gas-station"]?.["post"]
        assert.include(gasStation?.description ?? "", "sponsor", "the gas station is served with its description")
        const undocumented = Object.entries(paths).flatMap(([path, item]) =>
          Object.entries(item)
            .filter(([, op]) => !(op.summary && op.description))
            .map(([method]) => `${method.toUpperCase()} ${path}`)
        )
        assert.deepStrictEqual(undocumented, [])
      }))

    it.effect("/.well-known/x402 lists every live service's resource URL", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { entry } = yield* liveService(client, { price: 40n, upstreamUrl: (yield* Upstream).url })
        const { status, body } = yield* getJson(`${baseUrl}/.well-known/x402`)
        assert.strictEqual(status, 200)
        const document = Schema.decodeUnknownSync(X402Discovery)(body)
        assert.include(document.resources, entry.resourceUrl)
        assert.include(document.instructions, "scheme exact")
        assert.include(document.instructions, "sui-delegate")
      }))
  })
})
