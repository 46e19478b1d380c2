import { ApiFailure } from "./ApiFailure.ts"
import type { ChangeKind, GatewayApi } from "./GatewayApi.ts"
import { sleep } from "./Sleep.ts"

const RETRY_MS = 500
const ATTEMPTS = 120

/**
 * Finalizes one grant's change with its digest, asking again while the
 * gateway answers NOT_FINAL (the transaction's checkpoint is not final yet).
 */
export const finalizeWhenFinal = async (
  api: GatewayApi,
  change: { readonly kind: ChangeKind; readonly signerId: string; readonly grantId: string; readonly digest: string },
  onWaiting: (message: string) => void
) => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.finalize(change.kind, change.signerId, change.grantId, change.digest)
    } catch (cause) {
      if (!(cause instanceof ApiFailure) || cause.code !== "NOT_FINAL" || attempt >= ATTEMPTS) throw cause
      onWaiting(cause.message)
      await sleep(RETRY_MS)
    }
  }
}
