import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FetchLayer, makeApiClient, signIn, withOwner } from "@gateway/client"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { expectRateLimited, failsWith } from "../support/Assertions.ts"
import { awayFromMinuteEdge, postJson } from "../support/RawPost.ts"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"

/** Another client than the test's own: the whole of 127/8 is loopback, so a second source address is a second client. */
const ATTACKER_ADDRESS = "127.0.0.2"

/** A JSON POST from the attacker's own network address. */
const postFromAttacker = (baseUrl: string, path: string, body: unknown) => postJson(`${baseUrl}${path}`, body, { localAddress: ATTACKER_ADDRESS })

describe("sign-in cannot be locked out by someone else", () => {
  // The default brakes: 30 verified steps per address, 10 challenges per client.
  layer(Layer.mergeAll(layerTestServer({ signInPerMinute: 30, signInChallengesPerMinute: 10 }), FetchLayer), {
    excludeTestServices: true
  })((it) => {
    it.effect("the victim of 30 anonymous challenges and 30 forged sign-ins still signs in", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const victim = new Ed25519Keypair()
        const address = SuiAddress.make(victim.toSuiAddress())

        yield* awayFromMinuteEdge()
        const statuses: Array<number> = []
        for (let i = 0; i < 30; i++) statuses.push((yield* postFromAttacker(baseUrl, "/v1/auth/challenge", { address })).status)
        assert.strictEqual(statuses.filter((s) => s === 200).length, 10, "the attacker's own client budget stops the flood")
        const refused = yield* postFromAttacker(baseUrl, "/v1/auth/challenge", { address })
        expectRateLimited(refused, "sign_in_rate_limited", "Too many sign-in attempts: try again after Retry-After seconds")

        // Messages naming the victim, signed by a key that is not the victim's.
        const forger = new Ed25519Keypair()
        const issued = yield* client.auth.challenge({ payload: { address } })
        for (let i = 0; i < 30; i++) {
          const { signature } = yield* Effect.promise(() => forger.signPersonalMessage(new TextEncoder().encode(issued.message)))
          const forged = yield* postFromAttacker(baseUrl, "/v1/auth/session", { message: issued.message, signature })
          // Refused either way; with the attacker's client budget already spent, as rate limited.
          assert.strictEqual(forged.status, 429)
        }

        const session = yield* signIn(client, victim)
        assert.strictEqual(session.address, address)
        const policies = yield* client.policies.listPolicies().pipe(withOwner(session.authorization))
        assert.deepStrictEqual(policies.policies, [])
      }))

    it.effect("a challenge's text signed under another address does not burn it", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const victim = new Ed25519Keypair()
        const attacker = new Ed25519Keypair()
        const challenge = yield* client.auth.challenge({ payload: { address: SuiAddress.make(victim.toSuiAddress()) } })

        const stolen = challenge.message.replace(victim.toSuiAddress(), attacker.toSuiAddress())
        const theirs = yield* Effect.promise(() => attacker.signPersonalMessage(new TextEncoder().encode(stolen)))
        const refused = yield* failsWith(client.auth.session({ payload: { message: stolen, signature: theirs.signature } }), "UNAUTHENTICATED")
        assert.strictEqual(refused.reason, "unknown_used_or_expired_challenge")

        const mine = yield* Effect.promise(() => victim.signPersonalMessage(new TextEncoder().encode(challenge.message)))
        const session = yield* client.auth.session({ payload: { message: challenge.message, signature: mine.signature } })
        assert.strictEqual(session.address, victim.toSuiAddress())
      }))
  })
})
