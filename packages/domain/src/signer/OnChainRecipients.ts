import { MAX_RECIPIENTS, normalizeCoinType } from "../chain/SpendAccountModule.ts"
import type { PolicyRule } from "../Policy.ts"

/** The recipients a grant lists on chain, or why it cannot list them. */
export type OnChainRecipients =
  | { readonly _tag: "Listed"; readonly recipients: ReadonlyArray<string> }
  | { readonly _tag: "TooMany"; readonly count: number }

/**
 * The recipient list a grant in `coinType` carries on chain, compiled from
 * the signer's policy snapshot, so a leaked agent key cannot pay anyone the
 * policies never allow. The rules that allow this asset decide: the union of
 * their recipients, or empty (any) when no rule is attached or any such rule
 * leaves recipients open. Empty also when no rule allows the asset at all:
 * the chain cannot say "nobody", and the gateway and the SDK refuse those
 * payments by the policy anyway. Past MAX_RECIPIENTS the module would abort
 * the create, so it is refused before anything is built.
 */
export const onChainRecipients = (rules: ReadonlyArray<PolicyRule>, coinType: string): OnChainRecipients => {
  const asset = normalizeCoinType(coinType)
  const allowing = rules.filter((rule) => rule.assets.length === 0 || rule.assets.some((a) => normalizeCoinType(a) === asset))
  if (allowing.length === 0 || allowing.some((rule) => rule.recipients.length === 0)) return { _tag: "Listed", recipients: [] }
  const recipients = [...new Set(allowing.flatMap((rule) => rule.recipients))].sort()
  return recipients.length > MAX_RECIPIENTS ? { _tag: "TooMany", count: recipients.length } : { _tag: "Listed", recipients }
}
