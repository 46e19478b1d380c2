import { randomBytes } from "node:crypto"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Redacted } from "effect"
import { AppConfig, type AppConfigShape } from "../../src/Config.ts"
import { GatewayKeyRepo } from "../../src/storage/GatewayKeyRepo.ts"
import { SellerCredentials } from "../../src/upstream/SellerCredentials.ts"
import { layerStore } from "../../src/Server.ts"
import { TestStore, testConfig } from "../support/TestServer.ts"

const SECRET = "sealed-seller-secret"
const SERVICE = "svc_a"
const OWNER = `0x${"a".repeat(64)}`

/** SellerCredentials under these settings, over a migrated test store. */
const credentialsUnder = (overrides: Partial<AppConfigShape>) =>
  SellerCredentials.layer.pipe(
    Layer.provide(GatewayKeyRepo.layer),
    Layer.provide(layerStore(TestStore)),
    Layer.provide(AppConfig.layer({ ...testConfig, ...overrides }))
  )

const withCredentials = <A, E>(overrides: Partial<AppConfigShape>, use: (credentials: SellerCredentials["Service"]) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    return yield* use(yield* SellerCredentials)
  }).pipe(Effect.provide(credentialsUnder(overrides)))

const aKey = () => Option.some(Redacted.make(randomBytes(32).toString("base64")))

describe("sealed seller credentials", () => {
  it.effect("open only for the service and seller they were sealed for, under the key they were sealed with", () =>
    Effect.gen(function*() {
      const key = aKey()
      const sealed = yield* withCredentials({ credentialsKey: key }, (credentials) =>
        Effect.sync(() => {
          const sealed = credentials.seal(SERVICE, OWNER, Redacted.make(SECRET))
          assert.notInclude(sealed, SECRET)
          assert.notStrictEqual(credentials.seal(SERVICE, OWNER, Redacted.make(SECRET)), sealed, "a fresh nonce each time")
          assert.strictEqual(Option.map(credentials.open(SERVICE, OWNER, sealed), Redacted.value).pipe(Option.getOrNull), SECRET)
          assert.isTrue(Option.isNone(credentials.open("svc_b", OWNER, sealed)), "another service")
          assert.isTrue(Option.isNone(credentials.open(SERVICE, `0x${"b".repeat(64)}`, sealed)), "another seller")
          const [version, iv, tag, body = ""] = sealed.split(".")
          // The first character carries six whole bits of the first byte (the last may be only padding).
          const flipped = `${body.startsWith("A") ? "B" : "A"}${body.slice(1)}`
          assert.isTrue(Option.isNone(credentials.open(SERVICE, OWNER, [version, iv, tag, flipped].join("."))), "an altered ciphertext")
          assert.isTrue(Option.isNone(credentials.open(SERVICE, OWNER, "not sealed")), "not a sealed text")
          return sealed
        }))
      const underAnotherKey = yield* withCredentials({ credentialsKey: aKey() }, (credentials) => Effect.sync(() => credentials.open(SERVICE, OWNER, sealed)))
      assert.isTrue(Option.isNone(underAnotherKey), "another key")
    }))

  it.effect("refuse to start with a key that is not 32 bytes, or in live mode with no key at all", () =>
    Effect.gen(function*() {
      const short = yield* Effect.exit(withCredentials({ credentialsKey: Option.some(Redacted.make(randomBytes(16).toString("base64"))) }, () => Effect.void))
      assert.isTrue(Exit.isFailure(short))
      const live = yield* Effect.exit(withCredentials({ suiGrpcUrl: Option.some("http://127.0.0.1:9") }, () => Effect.void))
      assert.isTrue(Exit.isFailure(live))
      const local = yield* Effect.exit(withCredentials({}, () => Effect.void))
      assert.isTrue(Exit.isSuccess(local), "local mode keeps a key in the store")
    }))
})
