import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

export const Health = Schema.Struct({
  ok: Schema.Boolean,
  store: Schema.Literals(["up", "down"]),
  chain: Schema.Literals(["up", "down"]),
  network: Schema.String
})

export class SystemApi extends HttpApiGroup.make("system", { topLevel: true }).add(
  HttpApiEndpoint.get("health", "/health", { success: Health }).annotateMerge(OpenApi.annotations({
      summary: "Health",
      description: "Whether the store and the chain answer, and the network served."
    }))
) {}
