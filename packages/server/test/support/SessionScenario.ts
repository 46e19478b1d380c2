import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"
import { makeApiClient, signIn, withOwner } from "@gateway/client"
import { refs } from "./PayByHand.ts"
import { fundedOwner, grantedAgent, liveService } from "./Scenario.ts"
import { openByHand, sessionOffer } from "./SessionByHand.ts"
import { BaseUrl } from "./TestServer.ts"
import { Upstream } from "./Upstream.ts"

/** The price of one call in the session tests. */
export const PRICE = 40n
const DAY_MS = 86_400_000

/**
 * A live service at PRICE whose seller is signed in (to read its session listing), and a fresh agent with gas and
 * a grant of `budget` (expiring at `expiresAt`, if given) on it; `calls` counts the seller's calls from here on.
 */
export const sessionService = (input: { readonly budget: bigint; readonly expiresAt?: number }) =>
  Effect.gen(function*() {
    const upstream = yield* Upstream
    const client = yield* makeApiClient(yield* BaseUrl)
    const { owner, asOwner } = yield* fundedOwner(client)
    const seller = withOwner((yield* signIn(client, new Ed25519Keypair())).authorization)
    const { entry } = yield* liveService(client, { price: PRICE, upstreamUrl: upstream.url, seller })
    const { agentKey, manifest, signerId } = yield* grantedAgent(client, owner, asOwner, {
      key: `session-${entry.id}`,
      budget: input.budget,
      perPayment: 100n,
      ...(input.expiresAt === undefined ? {} : { expiresAt: input.expiresAt })
    })
    const callsBefore = upstream.calls.length
    return { client, owner, asOwner, seller, entry, agentKey, manifest, signerId, upstream, calls: () => upstream.calls.length - callsBefore }
  })

/** `sessionService`, and a session its agent opened by hand with `deposit`, expiring in `expiresInMs` (a day). */
export const sessionScenario = (input: { readonly budget: bigint; readonly deposit: bigint; readonly expiresInMs?: number }) =>
  Effect.gen(function*() {
    const service = yield* sessionService({ budget: input.budget })
    const offer = yield* sessionOffer(service.entry.resourceUrl)
    const { grant, pool } = refs(service.manifest)
    const session = yield* openByHand({
      agentKey: service.agentKey,
      grant,
      pool,
      payee: service.entry.payTo,
      operator: String(offer.extra["sessionOperator"]),
      deposit: input.deposit,
      expiryMs: BigInt(Date.now() + (input.expiresInMs ?? DAY_MS))
    })
    return { ...service, offer, grant, pool, session }
  })
