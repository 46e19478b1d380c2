import { Effect, type JsonSchema, Schema } from "effect"
import { Invalid } from "../Errors.ts"

/**
 * What a tool's caller sent that it does not take, as the host shows it: the
 * unknown names and the accepted ones, so a model can correct its call. Both MCP
 * servers check their tools' arguments here: the gateway's `/mcp` and the agent's stdio server.
 */
export const unknownArgumentsMessage = (tool: string, accepted: ReadonlyArray<string>, unknown: ReadonlyArray<string>) => {
  const named = unknown.map((name) => `"${name}"`).join(", ")
  const takes = accepted.length === 0 ? `${tool} takes no arguments` : `its arguments are ${accepted.join(", ")}`
  return `${tool} has no argument${unknown.length === 1 ? "" : "s"} ${named}; ${takes}`
}

const refused = (message: string, reason: string) => new Invalid({ message, reason })

/**
 * A tool's arguments, checked here rather than by effect's McpServer: it
 * drops unknown arguments silently, or (in strict mode) answers a JSON-RPC
 * protocol error that names no accepted argument. Decoded in the handler, a
 * refusal is a declared failure, which the host shows as the tool's error
 * (`isError`), as MCP asks for input errors. The advertised JSON Schema says
 * `additionalProperties: false`.
 */
/** Fields that decode without services, so a tool's arguments decode anywhere. */
export type ArgumentFields = { readonly [name: string]: Schema.Constraint & { readonly "DecodingServices": never } }

export const toolArguments = <const Fields extends ArgumentFields>(tool: string, fields: Fields) => {
  const schema = Schema.Struct(fields)
  const accepted = Object.keys(fields)
  const decode = Schema.decodeUnknownEffect(schema)
  const document = Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error" })
  // A struct of no fields compiles to "not null"; MCP wants an object root either way.
  const root = accepted.length === 0 ? { type: "object", properties: {}, additionalProperties: false } : document.schema
  const jsonSchema: JsonSchema.JsonSchema = Object.keys(document.definitions).length === 0 ? root : { ...root, $defs: document.definitions }
  const parse = (raw: unknown) => {
    const given = raw ?? {}
    if (typeof given !== "object" || Array.isArray(given)) {
      return Effect.fail(refused(`${tool} takes its arguments as one JSON object`, "arguments_not_an_object"))
    }
    const unknown = Object.keys(given).filter((name) => !accepted.includes(name))
    if (unknown.length > 0) return Effect.fail(refused(unknownArgumentsMessage(tool, accepted, unknown), "unknown_argument"))
    return decode(given).pipe(Effect.mapError((e) => refused(`invalid arguments to ${tool}: ${e.message}`, "invalid_argument")))
  }
  return { accepted, jsonSchema, parse }
}
