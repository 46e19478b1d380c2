import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"
import { makeApiClient } from "@gateway/client"
import { Structs, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { amount, fundedOwner, liveService, SUI } from "../../../server/test/support/Scenario.ts"
import { TestLedger } from "../../../server/test/support/TestLedger.ts"
import { BaseUrl } from "../../../server/test/support/TestServer.ts"

/**
 * A live 40-MIST service at `upstreamUrl` and a fresh agent with a finalized grant on it that owns NO SUI: unlike
 * `paidService`, nobody gives the agent gas, so it can pay only through the gateway's gas station.
 */
export const gaslessPaidService = (upstreamUrl: string) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const client = yield* makeApiClient(yield* BaseUrl)
    const { owner, asOwner } = yield* fundedOwner(client)
    const { entry } = yield* liveService(client, { price: 40n, upstreamUrl })
    const agentKey = new Ed25519Keypair()
    const created = yield* client.delegatedSigners.create({
      headers: { "idempotency-key": `gasless-${entry.id}` },
      payload: {
        agentAddress: SuiAddress.make(agentKey.toSuiAddress()),
        policyIds: [],
        assetScopes: [{ asset: SUI, totalBudgetAtomic: amount(10_000n), maxPerPaymentAtomic: amount(100n) }]
      }
    }).pipe(asOwner)
    const grant = created.grants[0]
    if (grant === undefined) return yield* Effect.die("no grant was prepared")
    const digest = yield* ledger.execute(grant.txKindBytes, owner)
    yield* ledger.checkpoint
    yield* client.delegatedSigners.finalizeCreate({ params: { id: created.delegatedSignerId, grantId: grant.grantId }, payload: { digest } })
      .pipe(asOwner)
    const manifest = yield* client.delegatedSigners.manifest({ params: { id: created.delegatedSignerId } }).pipe(asOwner)
    return { entry, agentKey, manifest }
  })

/** What `owner` holds in SUI, coins and address balance together, in MIST. */
export const suiBalance = (owner: string) =>
  Effect.flatMap(TestLedger, (ledger) =>
    Effect.map(
      Effect.promise(() => ledger.client.core.getBalance({ owner, coinType: SUI_COIN_TYPE })),
      ({ balance }) => BigInt(balance.balance)
    ))

/** What the grant has spent so far, as the chain holds it. */
export const grantSpent = (grantObjectId: string) =>
  Effect.flatMap(TestLedger, (ledger) => Effect.map(ledger.contents(grantObjectId), (bytes) => BigInt(Structs.Grant.parse(bytes).spent)))
