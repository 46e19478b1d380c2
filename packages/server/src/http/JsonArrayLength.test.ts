import { assert, describe, it } from "@effect/vitest"
import fc from "fast-check"
import { exceedsJsonArrayLength } from "./JsonArrayLength.ts"

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
