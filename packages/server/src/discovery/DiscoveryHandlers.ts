import { Effect } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { AgentDocuments } from "./AgentDocuments.ts"

/**
 * The server card is public metadata any page may read (SEP-2127 asks for
 * CORS `*`). Set as the response leaves, so the catalog caching in front,
 * which rebuilds the response, keeps it.
 */
const readableFromAnyOrigin = HttpEffect.appendPreResponseHandler((_request, response) =>
  Effect.succeed(HttpServerResponse.setHeaders(response, {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET",
    "access-control-allow-headers": "Content-Type"
  }))
)

export const DiscoveryHandlers = HttpApiBuilder.group(
  Api,
  "discovery",
  Effect.fn(function*(handlers) {
    const documents = yield* AgentDocuments
    const card = Effect.andThen(readableFromAnyOrigin, documents.serverCard)
    return handlers
      .handle("skill", () => documents.skill)
      .handle("llms", () => documents.llms)
      .handle("serverCard", () => card)
      .handle("mcp", () => card)
      .handle("x402", () => documents.x402)
  })
)
