import { assert, describe, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64, normalizeSuiAddress, toBase64 } from "@mysten/sui/utils"
import { Effect } from "effect"
import { makeApiClient } from "@gateway/client"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { Sponsorship } from "../../src/sponsorship/Sponsorship.ts"
import { failsWith } from "../support/Assertions.ts"
import { fundedOwner } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { askStation, gasStationEnv, granteeWithoutSui, kindOf, payKind, readBuilt, settle, transferKind } from "./GasStationKit.ts"
import { suiOf } from "./SponsorKit.ts"

/** LocalLedger's reference gas price. */
const REFERENCE_PRICE = 1000n

// Budgets and rates far above what these tests spend: here only what the gas station builds and refuses is under test.
const Env = gasStationEnv({ sponsorPerOwnerPerMinute: 1000, sponsorGasPerMinute: 10_000_000_000, sponsorNewcomerGasPerMinute: 10_000_000_000 })

const address = (key: Ed25519Keypair) => SuiAddress.make(normalizeSuiAddress(key.toSuiAddress()))

describe("the gas station (POST /v1/gas-station)", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("sponsors a grant payment for an agent that owns no SUI: the payer's kind unchanged, the sponsor co-signs at settlement, once", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const sponsorship = yield* Sponsorship
        const { owner, asOwner } = yield* fundedOwner(client)
        const { agentKey, agent, grant, pool } = yield* granteeWithoutSui(client, owner, asOwner, "station-grant")
        const payTo = address(new Ed25519Keypair())
        const kind = yield* payKind({ agent, grant, pool, amount: 40n, recipient: payTo, memo: "challenge-nonce" })

        const built = yield* client.gasStation.sponsor({ payload: { transactionKind: kind, sender: agent } })
        const read = readBuilt(built.transaction)
        assert.strictEqual(read.sender, agent)
        assert.strictEqual(built.sender, agent)
        assert.strictEqual(read.gasOwner, built.sponsor)
        assert.deepStrictEqual(sponsorship.sponsorAddress._tag === "Some" ? sponsorship.sponsorAddress.value : undefined, built.sponsor)
        assert.strictEqual(read.kind, kind, "the payer's kind, byte for byte")
        assert.strictEqual(read.price, REFERENCE_PRICE)
        assert.strictEqual(read.budget.toString(), built.gasBudget)
        assert.strictEqual(read.gasPayment.length, 1)
        assert.strictEqual(read.expiration.$kind, "Epoch")
        assert.deepStrictEqual(yield* sponsorship.heldPayment(agent, fromBase64(built.transaction)), { _tag: "Held" })
        // Another payer's claim on these bytes is not held for it.
        assert.strictEqual((yield* sponsorship.heldPayment(address(new Ed25519Keypair()), fromBase64(built.transaction)))._tag, "Refused")

        // Asked again for the same payment (a retry, or anyone who knows the kind): the same transaction, not a new hold.
        const again = yield* client.gasStation.sponsor({ payload: { transactionKind: kind, sender: agent } })
        assert.strictEqual(again.transaction, built.transaction)

        const sponsorBefore = yield* suiOf(built.sponsor)
        yield* settle(agentKey, built.transaction)
        assert.strictEqual(yield* suiOf(agent), 0n, "the agent never held SUI")
        assert.strictEqual(yield* suiOf(payTo), 40n)
        assert.isTrue((yield* suiOf(built.sponsor)) < sponsorBefore, "the sponsor paid the gas")
        const accounts = yield* client.spendAccounts.list().pipe(asOwner)
        assert.strictEqual(accounts.spendAccounts.find((a) => a.pool === pool.objectId)?.balance, "999960", "the owner's pool paid exactly the price")

        // One co-signature per build: settlement keeps the one it got; a second ask is refused, and the bytes are no longer held.
        const second = yield* failsWith(sponsorship.cosignPayment(agent, fromBase64(built.transaction)), "INVALID")
        assert.match(second.reason, /^transaction:/)
        assert.strictEqual((yield* sponsorship.heldPayment(agent, fromBase64(built.transaction)))._tag, "Refused")
      }))

    it.effect("sponsors a plain coinWithBalance transfer: the payer pays exactly the amount and no gas", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const client = yield* makeApiClient(yield* BaseUrl)
        const payerKey = new Ed25519Keypair()
        const payer = address(payerKey)
        yield* ledger.gas(payer)
        yield* ledger.checkpoint
        const payTo = address(new Ed25519Keypair())
        const kind = yield* transferKind(payer, payTo, 40n)

        const built = yield* client.gasStation.sponsor({ payload: { transactionKind: kind, sender: payer } })
        const read = readBuilt(built.transaction)
        assert.strictEqual(read.sender, payer)
        assert.strictEqual(read.gasOwner, built.sponsor)
        assert.strictEqual(read.kind, kind, "the payer's kind, byte for byte")

        const payerBefore = yield* suiOf(payer)
        yield* settle(payerKey, built.transaction)
        assert.strictEqual(yield* suiOf(payTo), 40n)
        assert.strictEqual(yield* suiOf(payer), payerBefore - 40n, "the payer paid the amount and no gas")
      }))

    it.effect("a payment never executed is let go: its hold is released, and the same payment asked again gets a fresh build", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const client = yield* makeApiClient(yield* BaseUrl)
        const sponsorship = yield* Sponsorship
        const payer = address(new Ed25519Keypair())
        yield* ledger.gas(payer)
        yield* ledger.checkpoint
        const kind = yield* transferKind(payer, address(new Ed25519Keypair()), 40n)
        const built = yield* client.gasStation.sponsor({ payload: { transactionKind: kind, sender: payer } })
        const bytes = fromBase64(built.transaction)
        yield* sponsorship.settledPayment(bytes, undefined)
        assert.strictEqual((yield* sponsorship.heldPayment(payer, bytes))._tag, "Refused")
        yield* failsWith(sponsorship.cosignPayment(payer, bytes), "INVALID")
        // A fresh build: held anew (it may land on the same free coin at the same version, so the same bytes).
        const fresh = yield* client.gasStation.sponsor({ payload: { transactionKind: kind, sender: payer } })
        assert.deepStrictEqual(yield* sponsorship.heldPayment(payer, fromBase64(fresh.transaction)), { _tag: "Held" })
      }))

    it.effect("refuses, with the spec's error body, a kind with a second command, a transfer of the gas coin and another address's objects", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const { owner, asOwner } = yield* fundedOwner(client)
        const { agent, grant, pool } = yield* granteeWithoutSui(client, owner, asOwner, "station-refusals")
        const payTo = address(new Ed25519Keypair())
        const sponsorship = yield* Sponsorship
        const sponsor = sponsorship.sponsorAddress._tag === "Some" ? sponsorship.sponsorAddress.value : ""
        const sponsorBefore = yield* suiOf(sponsor)

        const pay = yield* payKind({ agent, grant, pool, amount: 40n, recipient: payTo, memo: "n" })
        const withSecond = Transaction.fromKind(fromBase64(pay))
        withSecond.moveCall({ target: "0x2::coin::zero", typeArguments: ["0x2::sui::SUI"] })
        const secondCommand = toBase64(yield* Effect.promise(() => withSecond.build({ onlyTransactionKind: true })))

        const payerKey = new Ed25519Keypair()
        const payer = address(payerKey)
        yield* ledger.gas(payer)
        yield* ledger.checkpoint
        const gasCoinTransfer = yield* kindOf(payer, (tx) => {
          tx.transferObjects([tx.splitCoins(tx.gas, [40n])], payTo)
        })
        // The kind takes the payer's coins, but a stranger asks for it as its own.
        const stranger = address(new Ed25519Keypair())
        const othersCoins = yield* transferKind(payer, payTo, 40n)

        const cases = [
          { kind: secondCommand, sender: agent, reason: /^commands: a grant payment is exactly one call/ },
          { kind: gasCoinTransfer, sender: payer, reason: /gas coin/ },
          { kind: othersCoins, sender: stranger, reason: /^inputs: an object the payment takes is not the payer's/ }
        ]
        for (const { kind, sender, reason } of cases) {
          const answer = yield* askStation(baseUrl, kind, sender)
          assert.strictEqual(answer.status, 400, JSON.stringify(answer.body))
          assert.deepStrictEqual(Object.keys(answer.body).sort(), ["code", "message", "ok", "reason"])
          assert.deepInclude(answer.body, { ok: false, code: "INVALID" })
          assert.match(String(answer.body["reason"]), reason)
          const typed = yield* failsWith(client.gasStation.sponsor({ payload: { transactionKind: kind, sender } }), "INVALID")
          assert.match(typed.reason, reason)
        }
        assert.strictEqual(yield* suiOf(sponsor), sponsorBefore, "nothing refused cost the sponsor anything")
      }))
  })
})
