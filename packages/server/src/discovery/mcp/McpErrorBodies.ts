import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"

const MESSAGES: Readonly<Record<number, string>> = {
  403: "Forbidden: requests from a browser origin are not accepted",
  404: "Session not found: initialize again",
  405: "Method not allowed: this endpoint serves POST",
  406: "Not acceptable: accept both application/json and text/event-stream",
  415: "Unsupported media type: send application/json"
}

/**
 * effect's MCP transport refuses a request at the HTTP level with an empty
 * body (403, 405, 406, 415, …). Here it gets a JSON-RPC error body, as MCP
 * clients expect, with its status and headers (`Allow`) kept; the gateway's
 * own error bodies, which would turn these statuses into other codes, then
 * leave it alone.
 */
export const McpErrorBodies = HttpRouter.middleware((httpEffect) =>
  Effect.map(httpEffect, (response) =>
    response.status < 400 || response.body._tag !== "Empty"
      ? response
      : HttpServerResponse.jsonUnsafe(
        { jsonrpc: "2.0", error: { code: -32000, message: MESSAGES[response.status] ?? "Request refused" }, id: null },
        { status: response.status, headers: response.headers }
      ))
).layer
