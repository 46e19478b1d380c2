import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Logger } from "effect"
import { formatJsonLine, logLevelConfig, messageText } from "../../src/observability/Logging.ts"

const parseLevel = (env: Record<string, string>) => logLevelConfig.parse(ConfigProvider.fromEnv({ env }))

describe("LOG_LEVEL", () => {
  it.effect("accepts every effect level name in any case, trimmed; Info when unset", () =>
    Effect.gen(function*() {
      for (const name of ["All", "Fatal", "Error", "Warn", "Info", "Debug", "Trace", "None"] as const) {
        for (const variant of [name, name.toLowerCase(), name.toUpperCase(), ` ${name.toLowerCase()}\n`]) {
          assert.strictEqual(yield* parseLevel({ LOG_LEVEL: variant }), name, `LOG_LEVEL=${JSON.stringify(variant)}`)
        }
      }
      assert.strictEqual(yield* parseLevel({ LOG_LEVEL: "dEbUg" }), "Debug")
      // Unset, or set empty (effect's environment provider reads an empty variable as unset): Info.
      assert.strictEqual(yield* parseLevel({}), "Info")
      assert.strictEqual(yield* parseLevel({ LOG_LEVEL: "" }), "Info")
    }))

  it.effect("refuses an unknown value, naming LOG_LEVEL and the accepted values", () =>
    Effect.gen(function*() {
      for (const bad of ["verbose", "warning", "3", "info!"]) {
        const error = yield* Effect.flip(parseLevel({ LOG_LEVEL: bad }))
        assert.include(error.message, "LOG_LEVEL")
        assert.include(error.message, "All, Fatal, Error, Warn, Info, Debug, Trace, None")
        assert.include(error.message, JSON.stringify(bad))
      }
    }))
})

describe("JSON log lines", () => {
  it("an array of parts becomes one string: strings kept, others JSON-encoded, joined by a space", () => {
    assert.strictEqual(messageText(["sign-first payment recovered", "0xabc", "tag"]), "sign-first payment recovered 0xabc tag")
    assert.strictEqual(messageText(["store unavailable", { code: 1 }, 2, true, null]), "store unavailable {\"code\":1} 2 true null")
    assert.strictEqual(messageText("one"), "one")
    assert.strictEqual(messageText({ a: 1 }), "{\"a\":1}")
    assert.strictEqual(messageText([]), "")
  })

  it.effect("a log call with several arguments writes message as one string", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const capture = Logger.map(formatJsonLine, (line) => void lines.push(line))
      const logged = Effect.gen(function*() {
        yield* Effect.logWarning("store unavailable", "connection refused")
        yield* Effect.logInfo("sign-first payment recovered", "0xdigest", { tag: "t" })
        yield* Effect.logInfo("single")
      })
      yield* logged.pipe(Effect.annotateLogs("requestId", "r1"), Effect.provide(Logger.layer([capture])))
      const parsed = lines.map((line) => JSON.parse(line) as { message: unknown; level: string; annotations: unknown })
      assert.deepStrictEqual(parsed.map((entry) => entry.message), [
        "store unavailable connection refused",
        "sign-first payment recovered 0xdigest {\"tag\":\"t\"}",
        "single"
      ])
      assert.deepStrictEqual(parsed.map((entry) => entry.level), ["WARN", "INFO", "INFO"])
      assert.deepStrictEqual(parsed[0]?.annotations, { requestId: "r1" })
    }))
})
