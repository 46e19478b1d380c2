import type { Signer } from "@mysten/sui/cryptography"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { PaymentRequirements } from "@x402/core/types"
import { type GatewayClient, makeApiClient, withOwner } from "@gateway/client"
import { Events, eventType } from "@gateway/domain/chain/SpendAccountModule"
import type { DelegatedSignerId } from "@gateway/domain/Ids"
import { challengeOf, pay, present, refs } from "../support/PayByHand.ts"
import { fundedOwner, grantedAgent, liveService, paidCallEnv } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"

/** A live 40-MIST GET service registered and activated by `asSeller`, paying `payTo`. */
const serviceOf = (client: GatewayClient, asSeller: ReturnType<typeof withOwner>, payTo: string, upstreamUrl: string) =>
  Effect.map(liveService(client, { price: 40n, upstreamUrl, seller: asSeller, payTo }), ({ entry }) => entry)

/** What anyone reading the chain learns from a payment: its PaymentMade's nonce (the memo), amount and recipient. */
const readPaymentMade = (digest: string) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const read = yield* Effect.promise(() => ledger.client.core.getTransaction({ digest, include: { events: true } }))
    const events = (read.Transaction?.events ?? []).filter((e) => e.eventType === eventType(ledger.pkg.originalId, "PaymentMade"))
    const [event] = events
    if (event === undefined || events.length !== 1) return yield* Effect.die(`${digest}: not one PaymentMade`)
    const made = Events.PaymentMade.parse(event.bcs)
    return { nonce: new TextDecoder().decode(Uint8Array.from(made.memo)), amount: BigInt(made.amount), recipient: made.recipient }
  })

/** A challenge's terms carrying another nonce: the offer is public, only the nonce differs between two 402s. */
const withNonce = (terms: PaymentRequirements, nonce: string): PaymentRequirements => ({ ...terms, extra: { ...terms.extra, nonce } })

/**
 * Front-running: the victim's agent pays a challenge; the attacker (a stranger with a grant of its own,
 * or the seller paying itself) reads the nonce from the victim's PaymentMade, pays it too from its own
 * grant and presents first. Both payments are served once each, each appears in its owner's listing,
 * and neither digest is forwarded again.
 */
const frontRun = (attackerIs: "stranger" | "seller") =>
  Effect.gen(function*() {
    const upstream = yield* Upstream
    const client = yield* makeApiClient(yield* BaseUrl)
    const seller = yield* fundedOwner(client)
    // The seller is paid at its own address, so a seller front-running its service pays itself.
    const entry = yield* serviceOf(client, seller.asOwner, seller.owner.toSuiAddress(), upstream.url)

    const victimOwner = yield* fundedOwner(client)
    const victim = yield* grantedAgent(client, victimOwner.owner, victimOwner.asOwner, { key: `victim-${entry.id}`, budget: 1000n, perPayment: 100n })
    const attackerOwner: { readonly owner: Signer; readonly asOwner: ReturnType<typeof withOwner> } = attackerIs === "seller"
      ? seller
      : yield* fundedOwner(client)
    const attacker = yield* grantedAgent(client, attackerOwner.owner, attackerOwner.asOwner, { key: `attacker-${entry.id}`, budget: 1000n, perPayment: 100n })
    const calls = upstream.calls.length

    // The victim is challenged and pays; its payment is on chain before it presents.
    const challenged = yield* challengeOf(entry.resourceUrl)
    const victimDigest = yield* pay({ agentKey: victim.agentKey, ...refs(victim.manifest), amount: 40n, recipient: entry.payTo, nonce: challenged.nonce })

    // The attacker reads the nonce off the chain and pays it, same price, same recipient, from its own grant.
    const seen = yield* readPaymentMade(victimDigest)
    assert.strictEqual(seen.nonce, challenged.nonce)
    const attackerDigest = yield* pay({ agentKey: attacker.agentKey, ...refs(attacker.manifest), amount: seen.amount, recipient: seen.recipient, nonce: seen.nonce })
    const attackerTerms = withNonce((yield* challengeOf(entry.resourceUrl)).terms, seen.nonce)

    const first = yield* present(entry.resourceUrl, attackerTerms, attackerDigest, { signer: attacker.agentKey })
    assert.strictEqual(first.status, 200, `the attacker's own payment: ${JSON.stringify(first.body)}`)
    const second = yield* present(entry.resourceUrl, challenged.terms, victimDigest, { signer: victim.agentKey })
    assert.strictEqual(second.status, 200, `the victim's payment after the attacker's: ${JSON.stringify(second.body)}`)
    assert.strictEqual(upstream.calls.length, calls + 2, "the seller was called once per payment")

    // A replay of either digest gets its kept answer, only from its own payer, and is not forwarded again.
    for (const [who, terms, digest, payer, other, answer] of [
      ["attacker", attackerTerms, attackerDigest, attacker.agentKey, victim.agentKey, first.body],
      ["victim", challenged.terms, victimDigest, victim.agentKey, attacker.agentKey, second.body]
    ] as const) {
      const again = yield* present(entry.resourceUrl, terms, digest, { signer: payer })
      assert.deepStrictEqual([again.status, again.body], [200, answer], `the ${who}'s replay gets its own kept answer`)
      const stolen = yield* present(entry.resourceUrl, terms, digest, { signer: other })
      assert.deepStrictEqual([stolen.status, stolen.body.reason], [402, "payment_proof_invalid"], `the ${who}'s payment presented by the other`)
    }
    assert.strictEqual(upstream.calls.length, calls + 2, "no replay was forwarded")

    // Each payment is in its own owner's listing, and only there; the seller sees both.
    const listed = (signerId: DelegatedSignerId, asOwner: ReturnType<typeof withOwner>) =>
      Effect.map(client.delegatedSigners.payments({ params: { id: signerId }, query: {} }).pipe(asOwner), ({ payments }) =>
        payments.map((p) => [p.digest, p.outcome.state]))
    assert.deepStrictEqual(yield* listed(victim.signerId, victimOwner.asOwner), [[victimDigest, "forwarded"]])
    assert.deepStrictEqual(yield* listed(attacker.signerId, attackerOwner.asOwner), [[attackerDigest, "forwarded"]])
    const sold = yield* client.sellers.payments({ params: { id: entry.id }, query: {} }).pipe(seller.asOwner)
    assert.sameMembers(sold.payments.map((p) => p.digest), [victimDigest, attackerDigest])
  })

/**
 * Threat: anyone reading the chain, and the seller. A challenge is a price quote: every payment made
 * within its terms is served once, so nobody can take a payer's call by paying its nonce first, and
 * no payment is served twice or for another challenge.
 */
describe("security: a paid call cannot be front-run", () => {
  layer(paidCallEnv(), { excludeTestServices: true })((it) => {
    it.effect("a stranger who pays the victim's nonce first is served once, and so is the victim", () => frontRun("stranger"))

    it.effect("the seller paying itself the victim's nonce first is served once, and so is the victim", () => frontRun("seller"))

    it.effect("one payment pays one call of the service whose challenge it paid, and nothing else", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const client = yield* makeApiClient(yield* BaseUrl)
        const seller = yield* fundedOwner(client)
        const payTo = new Ed25519Keypair().toSuiAddress()
        const [a, b] = [yield* serviceOf(client, seller.asOwner, payTo, upstream.url), yield* serviceOf(client, seller.asOwner, payTo, upstream.url)]
        const payer = yield* fundedOwner(client)
        const { agentKey, manifest } = yield* grantedAgent(client, payer.owner, payer.asOwner, { key: `one-${a.id}`, budget: 1000n, perPayment: 100n })
        const calls = upstream.calls.length

        const paid = yield* challengeOf(a.resourceUrl)
        const digest = yield* pay({ agentKey, ...refs(manifest), amount: 40n, recipient: payTo, nonce: paid.nonce })
        assert.strictEqual((yield* present(a.resourceUrl, paid.terms, digest, { signer: agentKey })).status, 200)

        // Same price and recipient, so only the nonce tells the two services (and two challenges of one) apart.
        const freshA = yield* challengeOf(a.resourceUrl)
        const freshB = yield* challengeOf(b.resourceUrl)
        const attempts = [
          ["a fresh challenge of the same service", a.resourceUrl, freshA.terms, "payment_for_another_challenge"],
          ["a challenge of the other service", b.resourceUrl, freshB.terms, "payment_for_another_challenge"],
          ["its own challenge at the other service", b.resourceUrl, paid.terms, "unknown_challenge"]
        ] as const
        for (const [what, url, terms, reason] of attempts) {
          const again = yield* present(url, terms, digest, { signer: agentKey })
          assert.deepStrictEqual([again.status, again.body.reason], [402, reason], what)
        }
        assert.strictEqual(upstream.calls.length, calls + 1, "one payment, one forward")
      }))
  })
})
