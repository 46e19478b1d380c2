import { normalizeSuiAddress, toHex } from "@mysten/sui/utils"
import type { ChainTransaction } from "../chain/ChainTransaction.ts"
import { MODULE, nonceBytes, normalizeCoinType, type SpendAccountPackage } from "../chain/SpendAccountModule.ts"
import type { DelegatedSigner } from "../DelegatedSigner.ts"
import type { Grant } from "../Grant.ts"

const sameAddress = (value: unknown, expected: string) =>
  typeof value === "string" && normalizeSuiAddress(value) === normalizeSuiAddress(expected)

const policyList = (ids: ReadonlyArray<unknown>) => ids.map(String).sort().join(",")

/**
 * Whether a transaction called create_policy_grant with exactly what was
 * prepared for this grant, its nonce (the grant id) included: a failed
 * transaction has no GrantCreated to tell whose create it was, only its call.
 */
export const isCreateOf = (tx: ChainTransaction, pkg: SpendAccountPackage, signer: DelegatedSigner, grant: Grant): boolean =>
  tx.calls.some((call) => {
    const [, pool, nonce, , delegate, sessionCap, maxPerPayment, expiry, , , , , policies] = call.arguments
    return (sameAddress(call.package, pkg.publishedAt) || sameAddress(call.package, pkg.originalId)) && call.module === MODULE &&
      call.function === "create_policy_grant" && call.typeArguments[0] === normalizeCoinType(grant.coinType) &&
      sameAddress(pool, grant.poolId) && nonce === toHex(nonceBytes(grant.id)) && sameAddress(delegate, signer.agentAddress) &&
      String(sessionCap) === grant.sessionCap && String(maxPerPayment) === grant.maxPerPayment &&
      String(expiry) === grant.expiryMs.toString() && Array.isArray(policies) &&
      policyList(policies) === policyList(signer.onChainPolicyIds)
  })
