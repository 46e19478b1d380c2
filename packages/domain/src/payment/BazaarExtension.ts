import type { CatalogEntry } from "../CatalogEntry.ts"

/**
 * x402's `bazaar` discovery extension for one service, as `@x402/extensions`
 * declares it: `info` says how the service is called (method, where the
 * input goes) and what it answers, `schema` is the JSON Schema `info`
 * conforms to. The catalog does not describe parameters, so the input is an
 * open object of query parameters (GET, DELETE) or a JSON body (POST, PUT,
 * PATCH), and the output names the service's media type.
 */
export const BAZAAR = "bazaar"

const SCHEMA_DRAFT = "https://json-schema.org/draft/2020-12/schema"

const outputOf = (entry: CatalogEntry) => ({
  type: /json/i.test(entry.mimeType) ? "json" : "text",
  format: entry.mimeType
})

const outputSchema = {
  type: "object",
  properties: { type: { type: "string" }, format: { type: "string" } }
}

export const bazaarExtension = (entry: CatalogEntry) => {
  const withBody = entry.method === "POST" || entry.method === "PUT" || entry.method === "PATCH"
  const input = withBody
    ? { type: "http", method: entry.method, bodyType: "json", body: {} }
    : { type: "http", method: entry.method, queryParams: {} }
  const inputSchema = withBody
    ? {
      type: "object",
      properties: {
        type: { type: "string", const: "http" },
        method: { type: "string", enum: ["POST", "PUT", "PATCH"] },
        bodyType: { type: "string", enum: ["json", "form-data", "text"] },
        body: { type: "object" }
      },
      required: ["type", "method", "bodyType", "body"],
      additionalProperties: false
    }
    : {
      type: "object",
      properties: {
        type: { type: "string", const: "http" },
        method: { type: "string", enum: ["GET", "HEAD", "DELETE"] },
        queryParams: { type: "object" }
      },
      required: ["type", "method"],
      additionalProperties: false
    }
  return {
    info: { input, output: outputOf(entry) },
    schema: {
      $schema: SCHEMA_DRAFT,
      type: "object",
      properties: { input: inputSchema, output: outputSchema },
      required: ["input"]
    }
  }
}
