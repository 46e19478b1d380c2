import type { PolicyRule } from "../Policy.ts"

/** The grant a verified payment came from, as this gateway provisioned it: its id, pool, asset and its signer's policy snapshot. */
export interface PayingGrant {
  readonly id: string
  readonly poolId: string
  readonly coinType: string
  readonly policyRules: ReadonlyArray<PolicyRule>
}
