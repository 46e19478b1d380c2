import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import { FetchLayer, makeApiClient, signIn } from "@gateway/client"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"

/** Path parameters filled with well-formed ids, so requests reach body decoding. */
const fillParams = (path: string) =>
  path
    .replace("{id}", path.startsWith("/v1/services") ? "svc_0000000000000000000000000a" : "ds_0000000000000000000000000a")
    .replace("{grantId}", "g_0000000000000000000000000a")

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }
type JsonObject = { readonly [key: string]: Json }

const isObject = (value: Json | undefined): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value)

/** Values that break checks written for a valid input: fractions, negatives, huge, empty, wrong types. */
const trickyLeaf: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(1.5, -1, 0, 1e300, Number.MAX_SAFE_INTEGER + 2, "", "0", "1.5", "-1", "abc", null, true, [], {}),
  fc.jsonValue().map((v) => v as Json)
)

/**
 * A body shaped like a route's declared schema (its properties present, nested ones too) with each leaf either
 * one of the schema's own examples or enum values, or a tricky value: decoding then reaches the checks that
 * run only on well-shaped input, which random JSON almost never does.
 */
const shapedBody = (document: JsonObject, schema: JsonObject, depth = 0): fc.Arbitrary<Json> => {
  const ref = schema["$ref"]
  const components = isObject(document["components"]) ? document["components"]["schemas"] : undefined
  if (typeof ref === "string" && isObject(components)) {
    const target = components[ref.replace("#/components/schemas/", "")]
    return isObject(target) && depth < 8 ? shapedBody(document, target, depth + 1) : trickyLeaf
  }
  const branches = schema["anyOf"] ?? schema["oneOf"]
  if (Array.isArray(branches) && branches.length > 0) {
    return fc.oneof(...branches.filter(isObject).map((branch) => shapedBody(document, branch, depth + 1)))
  }
  const properties = schema["properties"]
  if (isObject(properties) && depth < 8) {
    const fields = Object.entries(properties).flatMap(([name, p]) => (isObject(p) ? [[name, shapedBody(document, p, depth + 1)] as const] : []))
    // Any subset of the fields, so a missing field is tried too.
    return fc.record(Object.fromEntries(fields), { requiredKeys: [] })
      .map((record): Json => Object.fromEntries(Object.entries(record).flatMap(([k, v]) => (v === undefined ? [] : [[k, v]]))))
  }
  if (schema["type"] === "array" && isObject(schema["items"]) && depth < 8) {
    return fc.array(shapedBody(document, schema["items"], depth + 1), { maxLength: 3 })
  }
  const known = [...(Array.isArray(schema["examples"]) ? schema["examples"] : []), ...(Array.isArray(schema["enum"]) ? schema["enum"] : [])]
  return known.length > 0 ? fc.oneof(fc.constantFrom(...known), trickyLeaf) : trickyLeaf
}

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

    it.effect("bodies shaped like each route's schema, with wrong leaves, never produce a 5xx and every failure is the error body", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { authorization } = yield* signIn(client, new Ed25519Keypair())
        const document = yield* Effect.promise(() => fetch(`${baseUrl}/openapi.json`).then((r) => r.json() as Promise<JsonObject>))
        const paths = isObject(document["paths"]) ? document["paths"] : {}
        const routes = Object.entries(paths).flatMap(([path, methods]) =>
          Object.entries(isObject(methods) ? methods : {}).flatMap(([method, operation]) => {
            const body = isObject(operation) && isObject(operation["requestBody"]) ? operation["requestBody"]["content"] : undefined
            const json = isObject(body) && isObject(body["application/json"]) ? body["application/json"]["schema"] : undefined
            return isObject(json) ? [{ path: fillParams(path), method: method.toUpperCase(), body: shapedBody(document, json) }] : []
          })
        )
        assert.isAtLeast(routes.length, 10)
        for (const route of routes) {
          yield* Effect.promise(() =>
            fc.assert(
              fc.asyncProperty(route.body, async (body) => {
                const text = JSON.stringify(body)
                const response = await fetch(`${baseUrl}${route.path}`, {
                  method: route.method,
                  headers: { "content-type": "application/json", authorization },
                  body: text
                })
                assert.isBelow(response.status, 500, `${route.method} ${route.path} ${text}`)
                if (response.status >= 400) {
                  const error = await response.json() as Record<string, unknown>
                  assert.deepStrictEqual(Object.keys(error).sort(), ["code", "message", "ok", "reason"], `${route.method} ${route.path} ${text}`)
                }
              }),
              { numRuns: 40, seed: 20261127 }
            )
          )
        }
      }))

    it.effect("a body nested deeper than 64 levels is INVALID naming the depth on every JSON route; 64 levels are decoded as usual", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { authorization } = yield* signIn(client, new Ed25519Keypair())
        const spec = yield* Effect.promise(() => fetch(`${baseUrl}/openapi.json`).then((r) => r.json())) as Effect.Effect<
          { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>> }
        >
        const routes = Object.entries(spec.paths).flatMap(([path, methods]) =>
          Object.entries(methods).filter(([, operation]) => operation.requestBody?.content?.["application/json"] !== undefined)
            .map(([method]) => ({ path: fillParams(path), method: method.toUpperCase() }))
        )
        assert.isAtLeast(routes.length, 4)
        const tooDeep = { ok: false, code: "INVALID", message: "The request is invalid", reason: "body: nested deeper than 64 levels" }
        const send = (route: { path: string; method: string }, body: string, contentType = "application/json") =>
          Effect.promise(() =>
            fetch(`${baseUrl}${route.path}`, { method: route.method, headers: { "content-type": contentType, authorization }, body })
              .then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> }))
          )
        const nested = (depth: number) => `{"name":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`
        for (const route of routes) {
          const where = `${route.method} ${route.path}`
          assert.deepStrictEqual(yield* send(route, nested(65)), { status: 400, body: tooDeep }, where)
          assert.deepStrictEqual(yield* send(route, nested(10_000), "application/json; charset=utf-8"), { status: 400, body: tooDeep }, where)
          const atCap = yield* send(route, nested(64))
          assert.notStrictEqual(atCap.body.reason, tooDeep.reason, where)
          assert.isBelow(atCap.status, 500, where)
        }
      }))
  })
})
