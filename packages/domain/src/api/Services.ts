import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import { CatalogEntry, CatalogList, CatalogQuery } from "../CatalogEntry.ts"
import { NotFound } from "../Errors.ts"
import { ServiceId } from "../Ids.ts"

/** The public read side of the catalog: no session needed. */
export class ServicesApi extends HttpApiGroup.make("services")
  .add(
    HttpApiEndpoint.get("list", "/", { query: CatalogQuery, success: CatalogList }),
    HttpApiEndpoint.get("markdown", "/:id.md", {
      params: { id: ServiceId },
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/markdown; charset=utf-8" })),
      error: NotFound
    }),
    HttpApiEndpoint.get("get", "/:id", { params: { id: ServiceId }, success: CatalogEntry, error: NotFound })
  )
  .prefix("/v1/services")
{}
