import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { paidCallEnv } from "../support/Scenario.ts"
import { BaseUrl } from "../support/TestServer.ts"
import stillUndescribed from "./OpenApiUndescribed.json" with { type: "json" }

type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const isObject = (value: Json | undefined): value is { readonly [key: string]: Json } =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The component a `$ref` names, if it is one of this document's. */
const resolve = (document: { readonly [key: string]: Json }, schema: { readonly [key: string]: Json }) => {
  const ref = schema["$ref"]
  if (typeof ref !== "string" || !ref.startsWith("#/components/schemas/")) return schema
  const components = document["components"]
  const schemas = isObject(components) ? components["schemas"] : undefined
  const target = isObject(schemas) ? schemas[ref.slice("#/components/schemas/".length)] : undefined
  return isObject(target) ? target : schema
}

/** Whether a property's schema says what it is: on itself, on the component it refers to, or on each branch of a union. */
const described = (document: { readonly [key: string]: Json }, schema: { readonly [key: string]: Json }): boolean => {
  if (typeof schema["description"] === "string" && schema["description"] !== "") return true
  const target = resolve(document, schema)
  if (target !== schema) return described(document, target)
  const branches = schema["anyOf"] ?? schema["oneOf"] ?? schema["allOf"]
  return Array.isArray(branches) && branches.length > 0 &&
    branches.every((branch: Json) => isObject(branch) && (branch["type"] === "null" || described(document, branch)))
}

/** Every `properties` entry anywhere in the document without a description, named by where it is. */
const undescribed = (document: { readonly [key: string]: Json }): ReadonlyArray<string> => {
  const missing: Array<string> = []
  const walk = (node: Json, where: string): void => {
    if (Array.isArray(node)) return node.forEach((item: Json, i: number) => walk(item, `${where}[${i}]`))
    if (!isObject(node)) return
    const properties = node["properties"]
    if (isObject(properties)) {
      for (const [name, schema] of Object.entries(properties)) {
        if (isObject(schema) && !described(document, schema)) missing.push(`${where}.${name}`)
      }
    }
    for (const [key, value] of Object.entries(node)) walk(value, `${where}/${key}`)
  }
  walk(document, "")
  return [...new Set(missing)].sort()
}

/**
 * Issue 28 asks for every field described; most are, and `OpenApiUndescribed.json` lists the ones still to do.
 * The test holds the list exact both ways: a new field without a description fails it, and so does describing
 * a listed one without taking it off the list, so the list only shrinks until it is empty.
 */
describe("the served OpenAPI document", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("describes every request and response field but the ones still listed to do", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const document = yield* Effect.promise(() => fetch(`${baseUrl}/openapi.json`).then((r) => r.json() as Promise<Json>))
        assert.isTrue(isObject(document))
        if (!isObject(document)) return
        const missing = undescribed(document)
        const listed = new Set<string>(stillUndescribed)
        const added = missing.filter((field) => !listed.has(field))
        const done = [...listed].filter((field) => !missing.includes(field))
        assert.deepStrictEqual(added, [], `${added.length} fields without a description that are not listed to do:\n${added.join("\n")}`)
        assert.deepStrictEqual(done, [], `${done.length} listed fields are described now: take them off OpenApiUndescribed.json`)
      }))
  })
})
