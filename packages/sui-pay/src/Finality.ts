import type { ClientWithCoreApi } from "@mysten/sui/client"

const POLL_MS = 100

/**
 * Resolves once the transaction is in a checkpoint: the gateway accepts a
 * payment only then (before, it answers 409 NOT_FINAL), and a standard x402
 * or MPP client presents its credential once, without retrying. A node that
 * does not know the digest yet is asked again; after `timeoutMs` it rejects.
 */
export const untilCheckpointed = async (client: ClientWithCoreApi, digest: string, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const checkpointed = await client.core.getTransaction({ digest }).then(
      (result) => (result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction).checkpoint !== null,
      () => false
    )
    if (checkpointed) return
    if (Date.now() > deadline) throw new Error(`payment ${digest} was not checkpointed within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}
