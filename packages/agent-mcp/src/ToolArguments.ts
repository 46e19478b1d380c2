import { Effect, type JsonSchema, Schema } from "effect"

/**
 * What a tool's caller sent that it does not take, as the host shows it: the
 * unknown names and the accepted ones, so a model can correct its call. Worded
 * as the gateway's `/mcp` words it (packages/server/src/discovery/mcp/ToolArguments.ts):
 * this package does not depend on the server, so the few lines are repeated,
 * and test/Vocabulary.test.ts holds the two to the same text.
 */
export const unknownArgumentsMessage = (tool: string, accepted: ReadonlyArray<string>, unknown: ReadonlyArray<string>) => {
  const named = unknown.map((name) => `"${name}"`).join(", ")
  const takes = accepted.length === 0 ? `${tool} takes no arguments` : `its arguments are ${accepted.join(", ")}`
  return `${tool} has no argument${unknown.length === 1 ? "" : "s"} ${named}; ${takes}`
}

/**
 * A tool's arguments: its JSON Schema as advertised (`additionalProperties:
 * false`, as on `/mcp`) and a parser that refuses an unknown argument by name
 * before decoding, rather than dropping it silently.
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
    if (typeof given !== "object" || Array.isArray(given)) return Effect.fail(`${tool} takes its arguments as one JSON object`)
    const unknown = Object.keys(given).filter((name) => !accepted.includes(name))
    if (unknown.length > 0) return Effect.fail(unknownArgumentsMessage(tool, accepted, unknown))
    return decode(given).pipe(Effect.mapError((e) => `invalid arguments to ${tool}: ${e.message}`))
  }
  return { accepted, jsonSchema, parse }
}
