import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { challengeOf, pay, present, refs } from "../support/PayByHand.ts"
import { paidCallEnv } from "../support/Scenario.ts"
import { Upstream } from "../support/Upstream.ts"
import { paidService } from "../support/PaidEnv.ts"

/**
 * Threat: anyone reading the chain. A payment's digest and its challenge nonce
 * are public (the nonce is PaymentMade's memo); with them alone a third party
 * must get no forward and no answer, and must not spend the payer's payment.
 */
describe("security: a paid call needs the payer's proof of possession", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("a third party with the public digest and nonce gets nothing, and the payer still gets its answer", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const sql = yield* SqlClient.SqlClient
        const { entry, agentKey, manifest } = yield* paidService(upstream.url, "POST")
        const { terms, nonce } = yield* challengeOf(entry.resourceUrl, "POST")
        const digest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: entry.payTo, nonce })
        const calls = upstream.calls.length
        const attacker = new Ed25519Keypair()
        const theirs = new TextEncoder().encode(`{"prompt":"the attacker's own request"}`)

        const attempts = [
          yield* present(entry.resourceUrl, terms, digest, { signer: undefined, method: "POST", body: theirs }),
          yield* present(entry.resourceUrl, terms, digest, { signer: attacker, method: "POST", body: theirs })
        ]
        for (const [i, attempt] of attempts.entries()) {
          assert.deepStrictEqual([attempt.status, attempt.body.reason], [402, "payment_proof_invalid"], `attempt ${i}`)
        }
        assert.strictEqual(upstream.calls.length, calls, "nothing was forwarded")
        const rows = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM payments WHERE digest = ${digest}`
        assert.strictEqual(rows[0]?.n, 0, "nothing was written")

        // The payer's own request, proven by its key, is still served.
        const mine = new TextEncoder().encode(`{"prompt":"the payer's request"}`)
        const paid = yield* present(entry.resourceUrl, terms, digest, { signer: agentKey, method: "POST", body: mine })
        assert.strictEqual(paid.status, 200)
        assert.strictEqual(upstream.calls.length, calls + 1)

        // After the forward, the public pair still buys nothing: neither the kept answer nor another forward.
        for (const signer of [undefined, attacker]) {
          const again = yield* present(entry.resourceUrl, terms, digest, { signer, method: "POST", body: mine })
          assert.deepStrictEqual([again.status, again.body.reason], [402, "payment_proof_invalid"], `again, signed by ${signer === undefined ? "nobody" : "the attacker"}`)
        }
        assert.strictEqual(upstream.calls.length, calls + 1)
      }))
  })
})
