import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import { FetchLayer, makeApiClient, signIn } from "@gateway/client"
import { BaseUrl, layerTestServer } from "./TestServer.ts"

/** Path parameters filled with well-formed ids, so requests reach body decoding. */
const fillParams = (path: string) =>
  path
    .replace("{id}", path.startsWith("/v1/services") ? "svc_0000000000000000000000000a" : "ds_0000000000000000000000000a")
    .replace("{grantId}", "g_0000000000000000000000000a")

describe("random bodies", () => {
  layer(Layer.mergeAll(layerTestServer(), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("never produce a 5xx on any POST or PUT route, and every failure is the error body", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { authorization } = yield* signIn(client, new Ed25519Keypair())
        const spec = yield* Effect.promise(() => fetch(`${baseUrl}/openapi.json`).then((r) => r.json())) as Effect.Effect<
          { paths: Record<string, Record<string, unknown>> }
        >
        const routes = Object.entries(spec.paths).flatMap(([path, methods]) =>
          Object.keys(methods).filter((m) => m === "post" || m === "put").map((method) => ({ path: fillParams(path), method }))
        )
        assert.isAtLeast(routes.length, 4)

        const body = fc.oneof(fc.json(), fc.string(), fc.jsonValue().map((v) => JSON.stringify({ address: v, name: v })))
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fc.constantFrom(...routes), body, fc.boolean(), async (route, text, authed) => {
              const response = await fetch(`${baseUrl}${route.path}`, {
                method: route.method.toUpperCase(),
                headers: { "content-type": "application/json", ...(authed ? { authorization } : {}) },
                body: text
              })
              assert.isBelow(response.status, 500, `${route.method} ${route.path} ${text}`)
              if (response.status >= 400) {
                const error = await response.json() as Record<string, unknown>
                assert.deepStrictEqual(Object.keys(error).sort(), ["code", "message", "ok", "reason"])
                assert.strictEqual(error.ok, false)
              }
            }),
            { numRuns: 200, seed: 20261123 }
          )
        )
      }))
  })
})
