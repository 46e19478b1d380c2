import { randomBytes } from "node:crypto"
import { assert, describe, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64, toBase64 } from "@mysten/sui/utils"
import { Effect } from "effect"
import { makeApiClient, signIn, withOwner } from "@gateway/client"
import { CoinType } from "@gateway/domain/CoinType"
import { SUI } from "../support/Scenario.ts"
import { failsWith } from "../support/Assertions.ts"
import { gatewayFor } from "../support/PaidEnv.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import {
  createRequestFor as createRequestIn,
  fundedWithoutSui as fundedWithoutSuiIn,
  ownerWithout,
  signed,
  sponsoredRun,
  suiOf
} from "./SponsorKit.ts"

/** A coin the owners hold instead of SUI. */
const USD = CoinType.make(`0x${randomBytes(32).toString("hex")}::usd::USD`)
const GAS_CAP = 50_000_000

const Env = gatewayFor([], { supportedAssets: [SUI, USD], sponsorGasBudgetMax: GAS_CAP, sponsorPerOwnerPerMinute: 1000 })

const fundedWithoutSui = fundedWithoutSuiIn(USD)

const createRequestFor = (agent: string, key: string) => createRequestIn(USD, agent, key)

describe("gas sponsorship for owners", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("an owner with no SUI funds a spend account, creates a signer and finalizes it, all on the sponsor's gas", () =>
      Effect.gen(function*() {
        const { client, owner, asOwner } = yield* fundedWithoutSui
        const accounts = yield* client.spendAccounts.list().pipe(asOwner)
        assert.strictEqual(accounts.spendAccounts.find((a) => a.coinType === USD)?.balance, "500000")

        const created = yield* client.delegatedSigners.create(createRequestFor(new Ed25519Keypair().toSuiAddress(), "sponsored")).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant was prepared")
        const digest = yield* sponsoredRun(client, owner, asOwner, grant.txKindBytes)
        const finalized = yield* client.delegatedSigners.finalizeCreate({ params: { id: created.delegatedSignerId, grantId: grant.grantId }, payload: { digest } })
          .pipe(asOwner)
        assert.strictEqual(finalized.status, "active")
        assert.strictEqual(finalized.signerStatus, "active")

        const pause = yield* client.delegatedSigners.preparePause({ params: { id: created.delegatedSignerId } }).pipe(asOwner)
        for (const kind of pause.grants) {
          const paused = yield* sponsoredRun(client, owner, asOwner, kind.txKindBytes)
          const result = yield* client.delegatedSigners.finalizePause({ params: { id: created.delegatedSignerId, grantId: kind.grantId }, payload: { digest: paused } })
            .pipe(asOwner)
          assert.strictEqual(result.status, "paused")
        }
        assert.strictEqual(yield* suiOf(owner.toSuiAddress()), 0n, "the owner never held SUI")
      }))

    it.effect("tampered bytes are refused and nothing executes: a gas coin transfer, another package, a budget over the cap, another sender", () =>
      Effect.gen(function*() {
        const { client, owner, asOwner } = yield* fundedWithoutSui
        const created = yield* client.delegatedSigners.create(createRequestFor(new Ed25519Keypair().toSuiAddress(), "tampered")).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant was prepared")
        const sponsored = yield* client.sponsorship.sponsor({ payload: { txKindBytes: grant.txKindBytes } }).pipe(asOwner)
        const sponsorSuiBefore = yield* suiOf(sponsored.sponsor)

        const tampered = (change: (tx: Transaction) => void) =>
          Effect.promise(async () => {
            const tx = Transaction.from(fromBase64(sponsored.txBytes))
            change(tx)
            return toBase64(await tx.build())
          })
        const thief = new Ed25519Keypair().toSuiAddress()
        const attempts = [
          yield* tampered((tx) => {
            tx.transferObjects([tx.gas], thief)
          }),
          yield* tampered((tx) => {
            tx.moveCall({ target: `${thief}::spend_account::revoke_grant`, arguments: [tx.object.clock()] })
          }),
          yield* tampered((tx) => tx.setGasBudget(GAS_CAP + 1)),
          yield* tampered((tx) => tx.setSender(thief))
        ]
        for (const txBytes of attempts) {
          const { signature } = yield* signed(owner, txBytes)
          yield* failsWith(client.sponsorship.execute({ payload: { txBytes, signature } }).pipe(asOwner), "INVALID")
        }
        // Bytes signed by someone else than the signed-in owner are not co-signed either.
        const stranger = yield* signed(new Ed25519Keypair(), sponsored.txBytes)
        yield* failsWith(client.sponsorship.execute({ payload: { txBytes: sponsored.txBytes, signature: stranger.signature } }).pipe(asOwner), "INVALID")
        assert.strictEqual(yield* suiOf(sponsored.sponsor), sponsorSuiBefore, "no refused transaction cost the sponsor gas")

        // The untouched bytes still execute, once: a replay is refused.
        const { signature } = yield* signed(owner, sponsored.txBytes)
        const executed = yield* client.sponsorship.execute({ payload: { txBytes: sponsored.txBytes, signature } }).pipe(asOwner)
        assert.strictEqual(executed.status, "success")
        yield* failsWith(client.sponsorship.execute({ payload: { txBytes: sponsored.txBytes, signature } }).pipe(asOwner), "INVALID")
      }))

    it.effect("the sponsor's other coins are not the owner's to deposit: such a kind is not sponsored, such bytes not co-signed, and nothing executes", () =>
      Effect.gen(function*() {
        const ledger = yield* TestLedger
        const { client, owner, asOwner, pool } = yield* fundedWithoutSui
        const grant = (yield* client.delegatedSigners.create(createRequestFor(new Ed25519Keypair().toSuiAddress(), "raid")).pipe(asOwner)).grants[0]
        if (grant === undefined) return assert.fail("no grant was prepared")
        const { sponsor } = yield* client.sponsorship.sponsor({ payload: { txKindBytes: grant.txKindBytes } }).pipe(asOwner)
        const [gas, loot] = (yield* Effect.promise(() => ledger.client.core.listCoins({ owner: sponsor }))).objects
        if (gas === undefined || loot === undefined) return assert.fail("the sponsor holds fewer than two coins")
        const poolRef = yield* ledger.sharedRef(pool)
        const registry = yield* ledger.sharedRef(ledger.pkg.registryId)

        const raid = (tx: Transaction) => {
          tx.setSender(owner.toSuiAddress())
          const [coin] = tx.splitCoins(tx.objectRef({ objectId: loot.objectId, version: loot.version, digest: loot.digest }), [tx.pure.u64(1_000_000)])
          if (coin === undefined) throw new Error("no split")
          tx.moveCall({
            target: `${ledger.pkg.publishedAt}::spend_account::deposit`,
            typeArguments: [SUI],
            arguments: [
              tx.sharedObjectRef({ objectId: registry.objectId, initialSharedVersion: registry.initialSharedVersion.toString(), mutable: false }),
              tx.sharedObjectRef({ objectId: poolRef.objectId, initialSharedVersion: poolRef.initialSharedVersion.toString(), mutable: true }),
              coin
            ]
          })
          return tx
        }
        const before = yield* suiOf(sponsor)
        const txKindBytes = toBase64(yield* Effect.promise(() => raid(new Transaction()).build({ onlyTransactionKind: true })))
        const notSponsored = yield* failsWith(client.sponsorship.sponsor({ payload: { txKindBytes } }).pipe(asOwner), "INVALID")
        assert.match(notSponsored.reason, /^inputs/)

        const tx = raid(new Transaction())
        tx.setGasOwner(sponsor)
        tx.setGasPayment([{ objectId: gas.objectId, version: gas.version, digest: gas.digest }])
        tx.setGasPrice(1000)
        tx.setGasBudget(GAS_CAP)
        const txBytes = toBase64(yield* Effect.promise(() => tx.build()))
        const { signature } = yield* signed(owner, txBytes)
        const refused = yield* failsWith(client.sponsorship.execute({ payload: { txBytes, signature } }).pipe(asOwner), "INVALID")
        assert.match(refused.reason, /^txBytes/)
        assert.strictEqual(yield* suiOf(sponsor), before)
      }))

    it.effect("a kind that is not the owner's own spend_account call is not sponsored", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const { owner, asOwner } = yield* ownerWithout(client, USD)
        const tx = new Transaction()
        tx.setSender(owner.toSuiAddress())
        const [coin] = tx.splitCoins(tx.gas, [tx.pure.u64(1)])
        if (coin !== undefined) tx.transferObjects([coin], new Ed25519Keypair().toSuiAddress())
        const txKindBytes = toBase64(yield* Effect.promise(() => tx.build({ onlyTransactionKind: true })))
        yield* failsWith(client.sponsorship.sponsor({ payload: { txKindBytes } }).pipe(asOwner), "INVALID")
      }))
  })

  layer(gatewayFor([], { sponsorPerOwnerPerMinute: 2 }), { excludeTestServices: true })((it) => {
    it.effect("an owner gets at most SPONSOR_PER_OWNER_PER_MINUTE sponsorship requests a minute (429, counted in the store); another owner is not held back", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const asOwner = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
        const asOther = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
        const txKindBytes = toBase64(new Uint8Array([0]))
        // Refused requests count too: each one costs the gateway a look at the chain.
        yield* failsWith(client.sponsorship.sponsor({ payload: { txKindBytes } }).pipe(asOwner), "INVALID")
        yield* failsWith(client.sponsorship.sponsor({ payload: { txKindBytes } }).pipe(asOwner), "INVALID")
        const limited = yield* failsWith(client.sponsorship.sponsor({ payload: { txKindBytes } }).pipe(asOwner), "RATE_LIMITED")
        assert.strictEqual(limited.reason, "sponsorship_rate_limited")
        yield* failsWith(client.sponsorship.sponsor({ payload: { txKindBytes } }).pipe(asOther), "INVALID")
      }))
  })

})
