import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"
import { makeApiClient, signIn, withOwner } from "@gateway/client"
import { fundedOwner, grantedAgent, liveService } from "../../../server/test/support/Scenario.ts"
import { BaseUrl } from "../../../server/test/support/TestServer.ts"
import { Upstream } from "../../../server/test/support/Upstream.ts"

/** The price of one call in the session tests. */
export const PRICE = 40n

/**
 * A live service at PRICE whose seller is signed in (to read its session listing), and a fresh agent with gas
 * and a grant of `budget` (expiring at `expiresAt`, if given) on it: nothing is opened yet, the agent opens its
 * sessions itself.
 */
export const sessionService = (budget = 10_000n, expiresAt?: number) =>
  Effect.gen(function*() {
    const upstream = yield* Upstream
    const client = yield* makeApiClient(yield* BaseUrl)
    const { owner, asOwner } = yield* fundedOwner(client)
    const seller = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
    const { entry } = yield* liveService(client, { price: PRICE, upstreamUrl: upstream.url, seller })
    const { agentKey, manifest } = yield* grantedAgent(client, owner, asOwner, {
      key: `session-agent-${entry.id}`,
      budget,
      perPayment: 100n,
      ...(expiresAt === undefined ? {} : { expiresAt })
    })
    const grant = manifest.grants[0]
    if (grant === undefined) return yield* Effect.die("no grant in the manifest")
    const callsBefore = upstream.calls.length
    return { client, seller, entry, agentKey, manifest, grant, upstream, calls: () => upstream.calls.length - callsBefore }
  })

/** The seller's listing of the sessions that paid its service. */
export const sellerSessions = (s: Effect.Success<ReturnType<typeof sessionService>>) =>
  s.client.sellers.sessions({ params: { id: s.entry.id } }).pipe(s.seller, Effect.map((listed) => listed.sessions))
