import { Effect } from "effect"
import { makeApiClient } from "@gateway/client"
import { Structs, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { fundedOwner, grantedAgent, liveService } from "../../../server/test/support/Scenario.ts"
import { TestLedger } from "../../../server/test/support/TestLedger.ts"
import { BaseUrl } from "../../../server/test/support/TestServer.ts"

/**
 * A live 40-MIST service at `upstreamUrl` and a fresh agent with a finalized grant on it that owns NO SUI: unlike
 * `paidService`, nobody gives the agent gas, so it can pay only through the gateway's gas station.
 */
export const gaslessPaidService = (upstreamUrl: string) =>
  Effect.gen(function*() {
    const client = yield* makeApiClient(yield* BaseUrl)
    const { owner, asOwner } = yield* fundedOwner(client)
    const { entry } = yield* liveService(client, { price: 40n, upstreamUrl })
    const { agentKey, manifest } = yield* grantedAgent(client, owner, asOwner, { key: `gasless-${entry.id}`, budget: 10_000n, perPayment: 100n, gas: false })
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
