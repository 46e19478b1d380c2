import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { jsonShapeOver, MAX_JSON_DEPTH } from "./JsonShape.ts"

const exceedsJsonDepth = (text: string, depth: number) => jsonShapeOver(text, { depth, items: Infinity }) === "depth"
const exceedsJsonArrayLength = (text: string, items: number) => jsonShapeOver(text, { depth: Infinity, items }) === "items"

/** The nesting depth of a parsed value, the oracle the scan must agree with. */
const depthOf = (value: unknown): number =>
  typeof value !== "object" || value === null
    ? 0
    : 1 + Math.max(0, ...(Array.isArray(value) ? value : Object.values(value)).map(depthOf))

const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels)

describe("JSON depth", () => {
  it("counts objects and arrays, not scalars", () => {
    assert.isFalse(exceedsJsonDepth("42", 0))
    assert.isFalse(exceedsJsonDepth("\"text\"", 0))
    assert.isTrue(exceedsJsonDepth("[]", 0))
    assert.isFalse(exceedsJsonDepth("[]", 1))
    assert.isTrue(exceedsJsonDepth("{\"a\":[{}]}", 2))
    assert.isFalse(exceedsJsonDepth("{\"a\":[{}]}", 3))
    assert.isFalse(exceedsJsonDepth("[[],[],{}]", 2))
  })

  it("ignores brackets inside strings, escaped quotes included", () => {
    assert.isFalse(exceedsJsonDepth("\"[[[[{{{{\"", 0))
    assert.isFalse(exceedsJsonDepth("[\"\\\"[[[[\"]", 1))
    assert.isTrue(exceedsJsonDepth("[\"\\\\\",[[]]]", 2))
    assert.isFalse(exceedsJsonDepth("{\"[[[\":\"]]]\"}", 1))
  })

  it("allows exactly the cap, refuses one level more, and refuses 10,000 levels", () => {
    assert.isFalse(exceedsJsonDepth(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH))
    assert.isTrue(exceedsJsonDepth(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH))
    assert.isTrue(exceedsJsonDepth(nested(10_000), MAX_JSON_DEPTH))
  })

  it("agrees with the depth of the parsed value for any JSON document", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.nat({ max: 9 }), (value, limit) => {
        const text = JSON.stringify(value)
        assert.strictEqual(exceedsJsonDepth(text, limit), depthOf(JSON.parse(text)) > limit, text)
      }),
      { seed: 64, numRuns: 1000 }
    )
  })
})

/** The most items of any array in a parsed value, the oracle the scan must agree with. */
const longestOf = (value: unknown): number =>
  typeof value !== "object" || value === null
    ? 0
    : Math.max(Array.isArray(value) ? value.length : 0, ...(Array.isArray(value) ? value : Object.values(value)).map(longestOf))

describe("JSON array length", () => {
  it("counts an array's own items, not its nested arrays' or an object's fields", () => {
    assert.isFalse(exceedsJsonArrayLength("[1,2,3]", 3))
    assert.isTrue(exceedsJsonArrayLength("[1,2,3,4]", 3))
    assert.isFalse(exceedsJsonArrayLength("[[1,2],[3,4],{\"a\":1,\"b\":2,\"c\":3,\"d\":4}]", 3))
    assert.isTrue(exceedsJsonArrayLength("{\"a\":[1,[2,3,4,5]]}", 3))
    assert.isFalse(exceedsJsonArrayLength("{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5}", 1))
  })

  it("ignores commas inside strings, escaped quotes included", () => {
    assert.isFalse(exceedsJsonArrayLength("[\",,,,,\"]", 1))
    assert.isFalse(exceedsJsonArrayLength("[\"\\\",,,\"]", 1))
    assert.isTrue(exceedsJsonArrayLength("[\"\\\\\",1]", 1))
  })

  it("agrees with the parsed value's longest array on any JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 6 }), (value, limit) => {
        assert.strictEqual(exceedsJsonArrayLength(JSON.stringify(value), limit), longestOf(value) > limit)
      }),
      { numRuns: 500 }
    )
  })
})
