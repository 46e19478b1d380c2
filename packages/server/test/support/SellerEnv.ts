import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect, Layer } from "effect"
import { FetchLayer, type GatewayClient, signIn } from "@gateway/client"
import type { AppConfigShape } from "../../src/Config.ts"
import { TestLedger } from "./TestLedger.ts"
import { layerTestServer, type TestStore } from "./TestServer.ts"
import { Upstream } from "./Upstream.ts"

/**
 * A gateway whose upstream allow-list names the recording upstream and
 * nothing else, so every other loopback or private target is refused as in
 * production; with the test's ledger handle and fetch.
 */
export const sellerEnv = (
  overrides: Partial<AppConfigShape> = {},
  options: { readonly store?: typeof TestStore; readonly logging?: Layer.Layer<never> } = {}
) =>
  Layer.unwrap(
    Effect.gen(function*() {
      const upstream = yield* Upstream
      const config = { ledgerCheckpointMs: 20, upstreamAllowHosts: [new URL(upstream.url).host], ...overrides }
      const server = layerTestServer(config, options.store, options.logging)
      return Layer.mergeAll(TestLedger.layer.pipe(Layer.provideMerge(server)), FetchLayer)
    })
  ).pipe(Layer.provideMerge(Upstream.layer))

/** A seller's registration body, as JSON goes on the wire (so a test may add any field, wanted or not). */
export const termsJson = (name: string, upstreamUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  description: `${name} answers one question per call`,
  method: "GET",
  path: "/answer",
  price: "40",
  asset: "0x2::sui::SUI",
  decimals: 9,
  payTo: new Ed25519Keypair().toSuiAddress(),
  upstreamUrl,
  ...extra
})

export interface Answer {
  readonly status: number
  readonly text: string
  readonly body: Record<string, unknown>
}

/** One HTTP call as any client makes it, with its status, raw text and parsed JSON body. */
export const call = (url: string, init: RequestInit = {}) =>
  Effect.promise(async (): Promise<Answer> => {
    const response = await fetch(url, init)
    const text = await response.text()
    let body: Record<string, unknown> = {}
    try {
      body = JSON.parse(text) as Record<string, unknown>
    } catch {
      // Not JSON (a Markdown or plain-text document): the text is what the test reads.
    }
    return { status: response.status, text, body }
  })

/** A seller with a session, calling the seller routes over plain HTTP. */
export const sellerSession = (client: GatewayClient, baseUrl: string) =>
  Effect.map(signIn(client, new Ed25519Keypair()), ({ authorization }) => {
    const send = (method: string, path: string, body?: Record<string, unknown>) =>
      call(`${baseUrl}${path}`, {
        method,
        headers: { authorization, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
    return {
      authorization,
      register: (body: Record<string, unknown>) => send("POST", "/v1/register", body),
      edit: (id: string, body: Record<string, unknown>) => send("PUT", `/v1/services/${id}`, body),
      activate: (id: string) => send("POST", `/v1/services/${id}/activate`),
      manage: (id: string) => send("GET", `/v1/services/${id}/manage`)
    }
  })

/** The id and resourceUrl an accepted registration or activation answered with. */
export const serviceOf = (answer: Answer) => {
  const service = answer.body["service"] as { id?: unknown; resourceUrl?: unknown } | undefined
  return { id: String(service?.id), resourceUrl: String(service?.resourceUrl) }
}
