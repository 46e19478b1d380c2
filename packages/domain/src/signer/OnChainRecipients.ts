import { MAX_RECIPIENTS, normalizeCoinType } from "../chain/SpendAccountModule.ts"
import type { PolicyRule } from "../Policy.ts"

/** The recipients a grant lists on chain, or why it cannot list them. */
export type OnChainRecipients =
  | { readonly _tag: "Listed"; readonly recipients: ReadonlyArray<string> }
  | { readonly _tag: "TooMany"; readonly count: number }
  | { readonly _tag: "AssetNotAllowed" }

/**
 * The recipient list a grant in `coinType` carries on chain, compiled from
 * the signer's policy snapshot, so a leaked agent key cannot pay anyone the
 * policies never allow. The rules that allow this asset decide: the union of
 * their recipients, or empty (any) when no rule is attached or any such rule
 * leaves recipients open. When policies are attached and none allows the
 * asset, no list can say "nobody" and an empty one would let a leaked agent
 * key pay anyone on chain, though the gateway and the SDK would refuse every
 * such payment: the create is refused instead (fails closed). Past
 * MAX_RECIPIENTS the module would abort the create, so it is refused before
 * anything is built.
 */
export const onChainRecipients = (rules: ReadonlyArray<PolicyRule>, coinType: string): OnChainRecipients => {
  const asset = normalizeCoinType(coinType)
  const allowing = rules.filter((rule) => rule.assets.length === 0 || rule.assets.some((a) => normalizeCoinType(a) === asset))
  if (rules.length === 0 || allowing.some((rule) => rule.recipients.length === 0)) return { _tag: "Listed", recipients: [] }
  if (allowing.length === 0) return { _tag: "AssetNotAllowed" }
  const recipients = [...new Set(allowing.flatMap((rule) => rule.recipients))].sort()
  return recipients.length > MAX_RECIPIENTS ? { _tag: "TooMany", count: recipients.length } : { _tag: "Listed", recipients }
}
