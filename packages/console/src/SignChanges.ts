import type { ConsoleContext } from "./ConsoleContext.ts"
import { finalizeWhenFinal } from "./Finalize.ts"
import type { ChangeKind } from "./GatewayApi.ts"
import { coinName } from "./CoinAmount.ts"

/** One grant's prepared change: the kind the owner signs. */
export interface PreparedGrantKind {
  readonly grantId: string
  readonly asset: string
  readonly txKindBytes: string
}

/**
 * Has the wallet sign and execute each grant's prepared kind, one after the
 * other, and finalizes each with its digest; reports each grant's status as
 * the gateway verified it.
 */
export const signChanges = async (
  context: ConsoleContext,
  change: { readonly kind: ChangeKind; readonly signerId: string; readonly grants: ReadonlyArray<PreparedGrantKind> },
  onFinalized: (grantId: string, status: string, signerStatus: string) => void
) => {
  const { api, wallet, notices } = context
  for (const [i, grant] of change.grants.entries()) {
    const step = `${i + 1} of ${change.grants.length} (${coinName(grant.asset)})`
    notices.progress(`Sign ${change.kind} ${step} in your wallet…`)
    const digest = await wallet.executeKind(grant.txKindBytes, () =>
      notices.progress(`You hold no SUI: the platform pays the gas of ${change.kind} ${step}. Sign it in your wallet…`))
    notices.progress(`Finalizing ${change.kind} ${step}…`)
    const result = await finalizeWhenFinal(api, { kind: change.kind, signerId: change.signerId, grantId: grant.grantId, digest }, (message) =>
      notices.progress(`Waiting for the chain to make ${change.kind} ${step} final (${message})…`))
    onFinalized(grant.grantId, result.status, result.signerStatus)
  }
}
