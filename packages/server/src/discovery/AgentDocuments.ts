import { Context, Effect, Layer } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { Invalid, NotFound, Unavailable } from "@gateway/domain/Errors"
import type { X402Discovery } from "@gateway/domain/payment/X402Discovery"
import { AppConfig } from "../Config.ts"
import { Catalog } from "../catalog/Catalog.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { SUMMARY, TITLE } from "./GatewaySummary.ts"
import { llmsDocument } from "./LlmsTxt.ts"
import { serverCard } from "./mcp/ServerCard.ts"
import { serviceDocument } from "./ServiceMarkdown.ts"
import { skillMd } from "./SkillMd.ts"
import { x402Resources } from "./X402Resources.ts"
import { withServices } from "../UseCase.ts"

/** What the use cases take from their context. */
type UseCaseServices = Catalog | AppConfig | Chain | PublicUrl

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
      // Only these services, so each call keeps its own clock, tracer and parent span.
      const services = Context.pick(Catalog, AppConfig, Chain, PublicUrl)(yield* Effect.context<UseCaseServices>())
      const { network } = yield* Chain
      const { origin } = yield* PublicUrl
      const link = (path: string) => `${origin}${path}`
      // Rendered on first request: it lists the API's routes, which takes building the OpenAPI document.
      let skill: string | undefined
      return AgentDocuments.of({
        llms: Effect.provideContext(llmsDocument(), services),
        skill: Effect.sync(() => (skill ??= skillMd(origin, network))),
        serverCard: Effect.succeed(serverCard({
          origin,
          title: TITLE,
          description: SUMMARY,
          documents: { openapi: link("/openapi.json"), llms: link("/llms.txt"), skill: link("/SKILL.md"), reference: link("/docs"), services: link("/v1/services") }
        })),
        x402: Effect.provideContext(x402Resources(), services),
        service: withServices(services)(serviceDocument)
      })
    })
  )
}
