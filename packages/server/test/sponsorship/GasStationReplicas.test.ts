import { assert, describe, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { normalizeSuiAddress, toBase64 } from "@mysten/sui/utils"
import { Effect, Layer } from "effect"
import { expectRateLimited } from "../support/Assertions.ts"
import { awayFromMinuteEdge } from "../support/RawPost.ts"
import { layerReplicas, ReplicaA, ReplicaB } from "../support/Replicas.ts"
import { testConfig } from "../support/TestServer.ts"
import { askStation } from "./GasStationKit.ts"

const LIMIT = 4

/** Not a payment: refused as INVALID, yet counted, as every request is, before anything else is looked at. */
const notAKind = toBase64(new Uint8Array([0]))

describe.runIf(process.env["TEST_DATABASE_URL"] !== undefined)("the gas station's per-payer rate across replicas on PostgreSQL", () => {
  layer(layerReplicas({ ...testConfig, sponsorPaymentRequestsPerPayerPerMinute: LIMIT }).pipe(Layer.orDie), { excludeTestServices: true })((it) => {
    it.effect("a payer spreading requests over two replicas is refused after the limit, by both; another payer is not", () =>
      Effect.gen(function*() {
        const a = yield* ReplicaA
        const b = yield* ReplicaB
        const payer = normalizeSuiAddress(new Ed25519Keypair().toSuiAddress())
        yield* awayFromMinuteEdge()
        for (const origin of [a, b, a, b]) {
          const answer = yield* askStation(origin, notAKind, payer)
          assert.strictEqual(answer.status, 400, JSON.stringify(answer.body))
        }
        expectRateLimited(yield* askStation(a, notAKind, payer), "gas_station_rate_limited")
        expectRateLimited(yield* askStation(b, notAKind, payer), "gas_station_rate_limited")
        const other = normalizeSuiAddress(new Ed25519Keypair().toSuiAddress())
        assert.strictEqual((yield* askStation(b, notAKind, other)).status, 400)
      }))

    it.effect("a burst from one payer at both replicas at once gets exactly the limit past the counter", () =>
      Effect.gen(function*() {
        const a = yield* ReplicaA
        const b = yield* ReplicaB
        const payer = normalizeSuiAddress(new Ed25519Keypair().toSuiAddress())
        yield* awayFromMinuteEdge()
        const answers = yield* Effect.all(
          Array.from({ length: 16 }, (_, i) => askStation(i % 2 === 0 ? a : b, notAKind, payer)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(answers.filter((r) => r.status === 400).length, LIMIT)
        for (const refused of answers.filter((r) => r.status !== 400)) expectRateLimited(refused, "gas_station_rate_limited")
      }))
  })
})
