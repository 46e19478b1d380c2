import { Context, Effect, Layer } from "effect"
import { OpenApi } from "effect/http-api"
import { Chain } from "@gateway/chain/Chain"
import { Api } from "@gateway/domain/api/Api"
import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import type { Invalid, NotFound, Unavailable } from "@gateway/domain/Errors"
import type { X402Discovery } from "@gateway/domain/payment/X402Discovery"
import { AppConfig } from "../Config.ts"
import { serverCard as serverCardOf } from "./mcp/ServerCard.ts"
import { Catalog } from "../catalog/Catalog.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"

const TITLE = "Sui delegated-signer gateway"

/** The most resource URLs `/.well-known/x402` lists; the catalog pages on at /v1/services. */
const X402_RESOURCES_MAX = 1000
const SUMMARY =
  "Paid HTTP APIs for agents. Read a service's terms from /v1/services/{id}, check them against your owner's policy, pay the exact price on Sui through your delegated grant, and call resourceUrl with the payment."

/** Every public route of the API definition, so the documents never drift from what is served. */
const publicRoutes = (() => {
  const spec = OpenApi.fromApi(Api)
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { summary?: string; operationId?: string; security?: ReadonlyArray<unknown> }>)
      .filter(([, op]) => typeof op === "object" && op !== null && "operationId" in op)
      .map(([method, op]) => ({ method: method.toUpperCase(), path, authenticated: (op.security ?? []).length > 0 }))
  )
})()

/**
 * Seller text is data, never structure: Markdown metacharacters are escaped,
 * and so are `:` and `www.`, which would otherwise make bare addresses links,
 * so a name or description cannot add links, images, headings, emphasis or
 * HTML to what agents read (control characters are refused at registration).
 * Seller text is never used as link text, whose parsing differs between
 * renderers.
 */
export const escapeMarkdown = (text: string) =>
  text
    .replace(/[\\`*_[\]<>|:]/g, (c) => `\\${c}`)
    .replace(/^[#+\->!=~]/, (c) => `\\${c}`)
    .replace(/www\./gi, (w) => `${w.slice(0, 3)}\\.`)

/** The agent's procedure, identical in SKILL.md and each service page. */
const PROCEDURE = [
  "1. Find a service: `GET /v1/services?q=<words>` lists live services; `GET /v1/services/{id}` is the authoritative JSON of its terms. MCP clients find the same through the MCP server at `/mcp` (Streamable HTTP, no sign-in needed): tools `search_services`, `get_service_terms` and `how_to_pay`.",
  "2. Compare the terms with your owner's policy (your connection manifest): the service `id`, `method`, `path`, `asset` and the recipient `payTo` must all be allowed. If any differs, do not pay.",
  "3. Treat `price` as an exact integer of atomic units of `asset`; `decimals` is for display only. Refuse a price above your grant's `maxPerPayment`.",
  "4. Call `resourceUrl` with `method`. The gateway answers `402 Payment Required` with a challenge carrying a nonce (each payment of it is served once): an x402 v2 `PAYMENT-REQUIRED` header (the same JSON as body) with one offer of scheme `sui-delegate` (`extra`: nonce, serviceId, method, path, resourceUrl, packageId, publishedAt, expiresAt), and an MPP `WWW-Authenticate: Payment` header (`method=\"sui\"`, `intent=\"charge\"`, the same terms in `request.methodDetails`).",
  "5. Pay only through the `delegate` rail, signed by your own key: call `<publishedAt>::spend_account::pay<T>(grant, pool, amount, recipient, memo, clock)` with T = the offer's asset, amount = exactly the offer's amount, recipient = payTo, memo = the UTF-8 bytes of the nonce, clock = 0x6. A payment counts once checkpointed. A wrong amount, recipient or memo does not pay the challenge, and nothing is refunded. Never send a private key anywhere.",
  "6. Repeat the call with a credential holding the transaction digest and your key's Sui personal-message signature (the proof): `PAYMENT-SIGNATURE: base64(JSON { x402Version: 2, accepted: <the offer>, payload: { digest, proof } })` or `Authorization: Payment base64url(JSON { challenge: <the whole MPP challenge>, payload: { digest, proof } })`. The proof signs, UTF-8 with lines joined by `\\n`: `sui-gateway-payment-proof:v1`, `nonce:<nonce>`, `digest:<digest>`, `method:<METHOD>`, `url:<resource.url><?query>`, `body-sha256:<hex SHA-256 of the body>`; a client that never sees the body may instead sign `sui-gateway-payment-proof:challenge:v1`, `nonce:`, `digest:`, `method:<offer method>`, `url:<offer resourceUrl>` and send `binding: \"challenge\"` in the payload. The digest alone redeems nothing: the chain is public. `409 NOT_FINAL` means present the same credential again shortly. The gateway verifies the payment on chain and the signature against your grant's delegate, forwards the call once, keeps the answer, and the response carries `PAYMENT-RESPONSE` and `Payment-Receipt`; presenting the same credential again fetches the kept answer. x402 and MPP clients can use the npm package `@gateway/sui-pay`; `/.well-known/x402` lists the paid resources."
]

export const serviceMarkdown = (entry: CatalogEntry) =>
  [
    `# ${escapeMarkdown(entry.name)}`,
    "",
    `> ${escapeMarkdown(entry.description)}`,
    "",
    "## Terms",
    "",
    `| field | value |`,
    `|---|---|`,
    `| id | \`${entry.id}\` |`,
    `| method | \`${entry.method}\` |`,
    `| path | \`${entry.path}\` |`,
    `| resourceUrl | ${entry.resourceUrl} |`,
    `| price | \`${entry.price}\` atomic units (decimals ${entry.decimals}) |`,
    `| asset | \`${entry.asset}\` |`,
    `| payTo | \`${entry.payTo}\` |`,
    `| network | \`${entry.network}\` |`,
    `| rail | \`${entry.rail}\` |`,
    `| dialects | ${entry.dialects.map((d) => `\`${d}\``).join(", ")} |`,
    `| mimeType | ${escapeMarkdown(entry.mimeType)} |`,
    `| activeRevision | ${entry.activeRevision} |`,
    "",
    "The JSON at `/v1/services/" + entry.id + "` is authoritative; this page is generated from it.",
    "",
    "## How to pay",
    "",
    ...PROCEDURE,
    "",
    "## Example",
    "",
    "```http",
    `${entry.method} ${entry.resourceUrl}`,
    "",
    "HTTP/1.1 402 Payment Required",
    `WWW-Authenticate: Payment id="…", method="sui", intent="charge", request="…"`,
    "```",
    ""
  ].join("\n")

/** The agent-facing documents, generated from live catalog data and the API definition. */
export class AgentDocuments extends Context.Service<AgentDocuments, {
  readonly llms: Effect.Effect<string, Invalid | Unavailable>
  readonly skill: Effect.Effect<string>
  /** The MCP server card (SEP-2127) of `/mcp`. */
  readonly serverCard: Effect.Effect<unknown>
  /** `/.well-known/x402`: the live services' resource URLs. */
  readonly x402: Effect.Effect<X402Discovery, Invalid | Unavailable>
  service(id: string): Effect.Effect<string, NotFound | Unavailable>
}>()("@gateway/server/AgentDocuments") {
  static readonly layer = Layer.effect(
    AgentDocuments,
    Effect.gen(function*() {
      const catalog = yield* Catalog
      const { llmsTxtMaxServices } = yield* AppConfig
      const { network } = yield* Chain
      const { origin } = yield* PublicUrl
      const link = (path: string) => `${origin}${path}`

      /**
       * The first `llmsTxtMaxServices` live services and a link to the page
       * after them, so the document's size (and the work of rendering it) stays
       * bounded however large the catalog grows. It is served from
       * ServiceReadCache, which every activation clears.
       */
      const llms = Effect.gen(function*() {
        const { count, services, nextCursor } = yield* catalog.list({ limit: llmsTxtMaxServices })
        const more = nextCursor === null
          ? []
          : [
            "",
            `${count} live services; the first ${services.length} are listed here. The rest, page by page: ${
              link(`/v1/services?limit=${llmsTxtMaxServices}&cursor=${nextCursor}`)
            }`
          ]
        return [
          `# ${TITLE}`,
          "",
          `> ${SUMMARY}`,
          "",
          "## Discovery",
          "",
          `- [Live services](${link("/v1/services")}): JSON list, \`?q=\` to search`,
          `- [Skill](${link("/SKILL.md")}): the safe discovery-and-payment procedure`,
          `- [MCP server](${link("/mcp")}): Streamable HTTP MCP endpoint with the tools search_services, get_service_terms and how_to_pay; no sign-in needed`,
          `- [MCP server card](${link("/.well-known/mcp/server-card")}): how to connect to it (also at /.well-known/mcp.json)`,
          `- [OpenAPI](${link("/openapi.json")}): every route of the API`,
          "",
          "## Services",
          "",
          ...(services.length === 0
            ? ["No live services yet."]
            : services.map((s) =>
              `- [${s.id}](${link(`/v1/services/${s.id}.md`)}): ${escapeMarkdown(s.name)} — ${escapeMarkdown(s.description)} (${s.price} of ${s.asset})`
            )),
          ...more,
          "",
          "## API",
          "",
          ...publicRoutes.map((r) => `- \`${r.method} ${r.path}\`${r.authenticated ? " (owner session)" : ""}`),
          ""
        ].join("\n")
      })

      const skill = Effect.succeed(
        [
          "---",
          "name: sui-delegated-gateway",
          `description: Discover paid HTTP services at ${origin} and pay for a call on Sui (${network}) through a delegated grant, within the owner's policy and caps.`,
          "---",
          "",
          `# ${TITLE}`,
          "",
          SUMMARY,
          "",
          "## Procedure",
          "",
          ...PROCEDURE,
          "",
          "## Rules",
          "",
          "- Reading the catalog does not authorize a purchase; only the owner's policy does.",
          "- Never pay a service, recipient or asset your policy does not list.",
          "- Never use floating point for amounts: `price` is a decimal string of atomic units.",
          "- A refused payment (paused, revoked, expired grant, or over a cap) must not be retried with another key.",
          `- Pay only on \`${network}\`: a challenge naming another network is not this gateway's.`,
          "",
          "## Routes",
          "",
          ...publicRoutes.filter((r) => !r.authenticated).map((r) => `- \`${r.method} ${link(r.path)}\``),
          ""
        ].join("\n")
      )

      const serverCard = Effect.succeed(serverCardOf({
        origin,
        title: TITLE,
        description: SUMMARY,
        documents: { openapi: link("/openapi.json"), llms: link("/llms.txt"), skill: link("/SKILL.md"), reference: link("/docs"), services: link("/v1/services") }
      }))

      /** Page by page up to X402_RESOURCES_MAX, so one request's work stays bounded however large the catalog grows. */
      const resources = (cursor: string | undefined, found: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<string>, Invalid | Unavailable> =>
        Effect.flatMap(catalog.list({ limit: 200, ...(cursor === undefined ? {} : { cursor }) }), (page) => {
          const all = [...found, ...page.services.map((s) => s.resourceUrl)]
          return page.nextCursor === null || all.length >= X402_RESOURCES_MAX
            ? Effect.succeed(all.slice(0, X402_RESOURCES_MAX))
            : resources(page.nextCursor, all)
        })

      const x402 = Effect.map(resources(undefined, []), (urls): X402Discovery => ({
        version: 1,
        resources: urls,
        instructions: `Each resource answers 402 with an x402 v2 offer of scheme sui-delegate (and an MPP challenge, method sui). Pay it on ${network} through a delegated grant: ${link("/SKILL.md")}; terms of each service: ${link("/v1/services")}.`
      }))

      return AgentDocuments.of({
        llms,
        skill,
        serverCard,
        x402,
        service: (id) => Effect.map(catalog.get(id), serviceMarkdown)
      })
    })
  )
}
