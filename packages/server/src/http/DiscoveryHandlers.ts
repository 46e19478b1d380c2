import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { AgentDocuments } from "../services/AgentDocuments.ts"

export const DiscoveryHandlers = HttpApiBuilder.group(
  Api,
  "discovery",
  Effect.fn(function*(handlers) {
    const documents = yield* AgentDocuments
    return handlers
      .handle("skill", () => documents.skill)
      .handle("llms", () => documents.llms)
      .handle("mcp", () => documents.mcp)
  })
)
