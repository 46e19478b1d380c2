import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { CatalogEntry, CatalogList, CatalogQuery } from "../CatalogEntry.ts"
import { described } from "../Doc.ts"
import { NotFound } from "../Errors.ts"
import { ServiceId } from "../Ids.ts"

const serviceParams = { id: described(ServiceId, "The service's id (svc_…), as /v1/services lists it.") }

/** The public read side of the catalog: no session needed. */
export class ServicesApi extends HttpApiGroup.make("services")
  .add(
    HttpApiEndpoint.get("list", "/", { query: CatalogQuery, success: CatalogList }).annotateMerge(OpenApi.annotations({
      summary: "List live services",
      description: "Live paid services, newest first; q searches names and descriptions, cursor pages on. No session needed."
    })),
    HttpApiEndpoint.get("markdown", "/:id.md", {
      params: serviceParams,
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/markdown; charset=utf-8" })),
      error: NotFound
    }).annotateMerge(OpenApi.annotations({
      summary: "A service's terms as Markdown",
      description: "The service page agents read: its terms and how to pay, generated from the JSON terms."
    })),
    HttpApiEndpoint.get("get", "/:id", { params: serviceParams, success: CatalogEntry, error: NotFound }).annotateMerge(OpenApi.annotations({
      summary: "A service's terms",
      description: "The authoritative machine terms of a paid call: price, asset, payTo, method, path, resourceUrl."
    }))
  )
  .prefix("/v1/services")
{}
