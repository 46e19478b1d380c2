import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { request } from "node:http"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as fc from "fast-check"
import { FetchLayer, makeApiClient, signIn } from "@gateway/client"
import { BaseUrl, layerTestServer } from "./TestServer.ts"

/** Sends raw bytes as-is (fetch would refuse invalid header values and rewrite bodies). */
const raw = (baseUrl: string, method: string, path: string, headers: Record<string, string>, body: Buffer) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(baseUrl)
    const req = request({ host: url.hostname, port: url.port, method, path, headers: { ...headers, "content-length": String(body.length) }, timeout: 10_000 }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }))
    })
    req.on("timeout", () => req.destroy(new Error("hung request")))
    req.on("error", reject)
    req.end(body)
  })

const isErrorBody = (text: string) => {
  const parsed: unknown = JSON.parse(text)
  return typeof parsed === "object" && parsed !== null && Object.keys(parsed).sort().join(",") === "code,message,ok,reason"
}

const segment = fc.oneof(
  fc.constantFrom("ds_0000000000000000000000000a", "g_0000000000000000000000000a", "svc_0000000000000000000000000a", "..", "%00", "%ff", encodeURIComponent("🙂")),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.constant("x".repeat(5000))
)
const body = fc.oneof(
  fc.json().map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
  fc.constant(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])),
  fc.integer({ min: 100, max: 30_000 }).map((depth) => Buffer.from("[".repeat(depth) + "]".repeat(depth))),
  fc.constant(Buffer.from(JSON.stringify({ address: "a".repeat(70_000) })))
)

describe("fuzzing every route", () => {
  layer(Layer.mergeAll(layerTestServer(), FetchLayer), { excludeTestServices: true })((it) => {
    it.effect("random paths, methods, headers and bodies: never a 5xx, never a hung request, always the error body", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { authorization } = yield* signIn(client, new Ed25519Keypair())
        const spec = yield* Effect.promise(() => fetch(`${baseUrl}/openapi.json`).then((r) => r.json() as Promise<{ paths: Record<string, unknown> }>))
        const templates = Object.keys(spec.paths)
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(
              fc.constantFrom(...templates),
              fc.array(segment, { minLength: 2, maxLength: 2 }),
              fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"),
              fc.record({ auth: fc.boolean(), type: fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "") }),
              body,
              async (template, [a, b], method, h, payload) => {
                const path = template.replace("{id}", a ?? "").replace("{grantId}", b ?? "")
                const headers: Record<string, string> = {}
                if (h.auth) headers["authorization"] = authorization
                if (h.type !== "") headers["content-type"] = h.type
                const response = await raw(baseUrl, method, path, headers, method === "GET" || method === "DELETE" ? Buffer.alloc(0) : payload)
                assert.isBelow(response.status, 500, `${method} ${path} -> ${response.body.slice(0, 200)}`)
                if (response.status >= 400 && response.status !== 402) assert.isTrue(isErrorBody(response.body), `${method} ${path}: ${response.body.slice(0, 200)}`)
              }
            ),
            { seed: 909, numRuns: 300 }
          )
        )
      }))
  })
})
