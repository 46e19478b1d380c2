import { Effect } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { DelegatedSigner } from "@gateway/domain/DelegatedSigner"
import type { GrantWindow } from "@gateway/domain/chain/GrantWindow"
import { windowedGrantObjects, type WindowsOnChain } from "@gateway/domain/signer/SignerView"

/**
 * The windows of the signers' windowed grants as the chain holds them, in
 * batched reads: the chain is the truth for what a window has spent, payments
 * the gateway never saw included. A chain that cannot answer leaves the
 * figures out (null in the view) rather than failing a read of the store.
 */
export const windowsOnChain = (signers: ReadonlyArray<DelegatedSigner>): Effect.Effect<WindowsOnChain, never, Chain> =>
  Effect.gen(function*() {
    const ids = windowedGrantObjects(signers)
    if (ids.length === 0) return new Map<string, GrantWindow>()
    const chain = yield* Chain
    const grants = yield* chain.readGrants(ids)
    return new Map(grants.map((g) => [g.grantObjectId, g.window]))
  }).pipe(
    Effect.catchTag("UNAVAILABLE", (error) => Effect.as(Effect.logWarning("grant windows unread", error.reason), new Map<string, GrantWindow>()))
  )
