import { assert, describe, it } from "@effect/vitest"
import { McpSessionTable } from "./McpSessionTable.ts"

const table = (maxSessions: number, perClient: number, idleMs = 1_000) => new McpSessionTable({ maxSessions, perClient, idleMs })

describe("MCP session table", () => {
  it("beyond its share, a client's own longest idle session is ended, not another client's", () => {
    const sessions = table(10, 2)
    assert.deepStrictEqual(sessions.add("other", "b", 0), [])
    assert.deepStrictEqual(sessions.add("a1", "a", 1), [])
    assert.deepStrictEqual(sessions.add("a2", "a", 2), [])
    assert.strictEqual(sessions.use("a1", 3), "live")
    // a1 was used after a2: a2 is a's longest idle.
    assert.deepStrictEqual(sessions.add("a3", "a", 4), ["a2"])
    assert.strictEqual(sessions.size, 3)
    assert.strictEqual(sessions.use("other", 5), "live")
  })

  it("beyond the maximum, the longest idle session of all is ended", () => {
    const sessions = table(3, 3)
    sessions.add("s1", "a", 0)
    sessions.add("s2", "b", 1)
    sessions.add("s3", "c", 2)
    sessions.use("s1", 3)
    assert.deepStrictEqual(sessions.add("s4", "d", 4), ["s2"])
    assert.strictEqual(sessions.size, 3)
  })

  it("a session unused past the idle bound is expired on use or by a sweep; one in use is not", () => {
    const sessions = table(10, 10, 100)
    sessions.add("idle", "a", 0)
    sessions.add("used", "a", 0)
    sessions.add("late", "b", 0)
    assert.strictEqual(sessions.use("used", 90), "live")
    assert.strictEqual(sessions.use("late", 101), "expired")
    assert.strictEqual(sessions.use("late", 102), "unknown")
    assert.deepStrictEqual(sessions.expire(150), ["idle"])
    assert.deepStrictEqual(sessions.expire(150), [])
    assert.deepStrictEqual(sessions.expire(191), ["used"])
    assert.strictEqual(sessions.size, 0)
  })

  it("a session its client ended is forgotten; bounds below 1 count as 1", () => {
    const sessions = table(0, 0)
    sessions.add("s1", "a", 0)
    assert.isTrue(sessions.remove("s1"))
    assert.isFalse(sessions.remove("s1"))
    sessions.add("s2", "a", 1)
    assert.deepStrictEqual(sessions.add("s3", "b", 2), ["s2"])
  })
})
