import type { ClientWithCoreApi } from "@mysten/sui/client"

/** The first wait between reads, growing by half each time up to the longest: quick on a fast ledger, light on a full node. */
const FIRST_POLL_MS = 20
const LONGEST_POLL_MS = 200

/**
 * Resolves once the transaction is in a checkpoint, read from the chain: the
 * gateway accepts a payment only then (before, it answers 409 NOT_FINAL), so
 * an agent presents its credential once instead of retrying the paid call,
 * and a standard x402 or MPP client, which presents once, is not refused. A
 * node that does not know the digest yet is asked again; after `timeoutMs` it
 * rejects.
 */
export const untilCheckpointed = async (client: ClientWithCoreApi, digest: string, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  for (let wait = FIRST_POLL_MS;; wait = Math.min(LONGEST_POLL_MS, Math.round(wait * 1.5))) {
    const checkpointed = await client.core.getTransaction({ digest }).then(
      (result) => (result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction).checkpoint !== null,
      () => false
    )
    if (checkpointed) return
    if (Date.now() > deadline) throw new Error(`payment ${digest} was not checkpointed within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}
