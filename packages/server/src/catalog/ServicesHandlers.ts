import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { AgentDocuments } from "../discovery/AgentDocuments.ts"
import { Catalog } from "./Catalog.ts"

export const ServicesHandlers = HttpApiBuilder.group(
  Api,
  "services",
  Effect.fn(function*(handlers) {
    const catalog = yield* Catalog
    const documents = yield* AgentDocuments
    return handlers
      .handle("list", ({ query }) => catalog.list(query))
      .handle("get", ({ params }) => catalog.get(params.id))
      .handle("markdown", ({ params }) => documents.service(params.id))
  })
)
