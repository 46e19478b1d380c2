import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { paidCallEnv } from "../support/Scenario.ts"
import { BaseUrl } from "../support/TestServer.ts"

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }
type JsonObject = { readonly [key: string]: Json }

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The component a `$ref` names, if it is one of this document's. */
const resolve = (document: JsonObject, schema: JsonObject) => {
  const ref = schema["$ref"]
  if (typeof ref !== "string" || !ref.startsWith("#/components/schemas/")) return schema
  const components = document["components"]
  const schemas = isObject(components) ? components["schemas"] : undefined
  const target = isObject(schemas) ? schemas[ref.slice("#/components/schemas/".length)] : undefined
  return isObject(target) ? target : schema
}

/**
 * Whether a schema has what `own` looks for: on itself, on the component it refers to, on any `allOf` member (each
 * applies to the whole; a key's description and examples land there), or on every non-null branch of a union.
 */
const has = (document: JsonObject, schema: JsonObject, own: (schema: JsonObject) => boolean): boolean => {
  if (own(schema)) return true
  const target = resolve(document, schema)
  if (target !== schema) return has(document, target, own)
  const members = schema["allOf"]
  if (Array.isArray(members) && members.some((member: Json) => isObject(member) && has(document, member, own))) return true
  const branches = schema["anyOf"] ?? schema["oneOf"]
  return Array.isArray(branches) && branches.length > 0 &&
    branches.every((branch: Json) => isObject(branch) && (branch["type"] === "null" || has(document, branch, own)))
}

const ownDescription = (schema: JsonObject) => typeof schema["description"] === "string" && schema["description"] !== ""
const ownExamples = (schema: JsonObject) => Array.isArray(schema["examples"]) && schema["examples"].length > 0
/** A parameter object may also show one `example`, or OpenAPI's named `examples` map. */
const ownExample = (node: JsonObject) =>
  ownExamples(node) || node["example"] !== undefined || (isObject(node["examples"]) && Object.keys(node["examples"]).length > 0)

const SCALARS: ReadonlyArray<Json> = ["string", "number", "integer", "boolean"]

/** A field holding one value (string, number, integer, boolean, or a constant), maybe null: one an example shows whole. */
const isLeaf = (document: JsonObject, schema: JsonObject): boolean => {
  const target = resolve(document, schema)
  if (target !== schema) return isLeaf(document, target)
  const type = schema["type"]
  if (typeof type === "string") return SCALARS.includes(type)
  if (schema["const"] !== undefined || schema["enum"] !== undefined) return true
  const branches = schema["anyOf"] ?? schema["oneOf"]
  return Array.isArray(branches) && branches.length > 0 &&
    branches.every((branch: Json) => isObject(branch) && (branch["type"] === "null" || isLeaf(document, branch)))
}

/** Every `properties` entry anywhere in the document that fails `ok`, named by where it is. */
const fieldsFailing = (document: JsonObject, ok: (schema: JsonObject) => boolean): ReadonlyArray<string> => {
  const failing: Array<string> = []
  const walk = (node: Json, where: string): void => {
    if (Array.isArray(node)) return node.forEach((item: Json, i: number) => walk(item, `${where}[${i}]`))
    if (!isObject(node)) return
    const properties = node["properties"]
    if (isObject(properties)) {
      for (const [name, schema] of Object.entries(properties)) {
        if (isObject(schema) && !ok(schema)) failing.push(`${where}.${name}`)
      }
    }
    for (const [key, value] of Object.entries(node)) walk(value, `${where}/${key}`)
  }
  walk(document, "")
  return [...new Set(failing)].sort()
}

/**
 * Every parameter (path, query, header) of every operation that fails `ok`, named by method, path and place. `ok` gets
 * the parameter object and its schema: a description or example may sit on either.
 */
const parametersFailing = (document: JsonObject, ok: (parameter: JsonObject, schema: JsonObject) => boolean): ReadonlyArray<string> => {
  const failing: Array<string> = []
  const paths = document["paths"]
  for (const [path, item] of Object.entries(isObject(paths) ? paths : {})) {
    if (!isObject(item)) continue
    for (const [method, operation] of Object.entries(item)) {
      const parameters = isObject(operation) ? operation["parameters"] : undefined
      if (!Array.isArray(parameters)) continue
      for (const parameter of parameters) {
        if (!isObject(parameter)) continue
        const schema = parameter["schema"]
        if (!ok(parameter, isObject(schema) ? schema : {})) failing.push(`${method.toUpperCase()} ${path} ${String(parameter["in"])}:${String(parameter["name"])}`)
      }
    }
  }
  return failing.sort()
}

/** Where anywhere in the document a schema offers the non-finite number strings a plain `Schema.Number` encodes to. */
const nonFiniteOffers = (document: JsonObject): ReadonlyArray<string> => {
  const found: Array<string> = []
  const walk = (node: Json, where: string): void => {
    if (Array.isArray(node)) return node.forEach((item: Json, i: number) => walk(item, `${where}[${i}]`))
    if (!isObject(node)) return
    const values = node["enum"]
    if (Array.isArray(values) && values.some((value: Json) => value === "NaN" || value === "Infinity")) found.push(where)
    for (const [key, value] of Object.entries(node)) walk(value, `${where}/${key}`)
  }
  walk(document, "")
  return found
}

/** A property of a request or response body's schema (resolving a `$ref`), or an empty schema when there is none. */
const bodyProperty = (document: JsonObject, body: Json | undefined, name: string): JsonObject => {
  const content = isObject(body) ? body["content"] : undefined
  const media = isObject(content) ? content["application/json"] : undefined
  const schema = isObject(media) ? media["schema"] : undefined
  const target = isObject(schema) ? resolve(document, schema) : {}
  const properties = target["properties"]
  const property = isObject(properties) ? properties[name] : undefined
  return isObject(property) ? property : {}
}

const served = Effect.gen(function*() {
  const baseUrl = yield* BaseUrl
  const document = yield* Effect.promise(() => fetch(`${baseUrl}/openapi.json`).then((r) => r.json() as Promise<Json>))
  assert.isTrue(isObject(document))
  return isObject(document) ? document : {}
})

/** Issue 28: every request and response field of the served document says what it is, and each one-value field shows an example. */
describe("the served OpenAPI document", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("describes every request and response field", () =>
      Effect.gen(function*() {
        const document = yield* served
        const missing = fieldsFailing(document, (schema) => has(document, schema, ownDescription))
        assert.deepStrictEqual(missing, [], `${missing.length} fields without a description:\n${missing.join("\n")}`)
      }))

    it.effect("has an example for every leaf field", () =>
      Effect.gen(function*() {
        const document = yield* served
        const missing = fieldsFailing(document, (schema) => !isLeaf(document, schema) || has(document, schema, ownExamples))
        assert.deepStrictEqual(missing, [], `${missing.length} leaf fields without an example:\n${missing.join("\n")}`)
      }))

    it.effect("every parameter has a description and an example", () =>
      Effect.gen(function*() {
        const document = yield* served
        const undescribed = parametersFailing(document, (parameter, schema) => ownDescription(parameter) || has(document, schema, ownDescription))
        const unexemplified = parametersFailing(document, (parameter, schema) => ownExample(parameter) || has(document, schema, ownExample))
        assert.deepStrictEqual(undescribed, [], `${undescribed.length} parameters without a description:\n${undescribed.join("\n")}`)
        assert.deepStrictEqual(unexemplified, [], `${unexemplified.length} parameters without an example:\n${unexemplified.join("\n")}`)
        // The walk saw the parameters: every id path, the paging queries and the idempotency header.
        assert.isAbove(parametersFailing(document, () => false).length, 40)
      }))

    it.effect("offers no NaN or Infinity strings for a number", () =>
      Effect.gen(function*() {
        const found = nonFiniteOffers(yield* served)
        assert.deepStrictEqual(found, [], `${found.length} numbers that admit non-finite strings:\n${found.join("\n")}`)
      }))

    it.effect("states the pattern of addresses, coin types and atomic amounts", () =>
      Effect.gen(function*() {
        const document = yield* served
        const paths = document["paths"]
        const register = isObject(paths) ? paths["/v1/register"] : undefined
        const operation = isObject(register) ? register["post"] : undefined
        const body = isObject(operation) ? operation["requestBody"] : undefined
        const states = (name: string, pattern: string) =>
          assert.isTrue(has(document, bodyProperty(document, body, name), (schema) => schema["pattern"] === pattern), `${name}: ${pattern}`)
        states("payTo", "^0x[0-9a-f]{64}$")
        states("asset", "^0x[0-9a-fA-F]{1,64}::[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*$")
        states("price", "^(0|[1-9][0-9]{0,19})$")
      }))
  })
})
