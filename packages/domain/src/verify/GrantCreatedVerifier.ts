import { toHex } from "@mysten/sui/utils"
import { Effect } from "effect"
import type { ChainTransaction } from "../chain/ChainTransaction.ts"
import { Events, nonceBytes, type SpendAccountPackage, typeNameOf } from "../chain/SpendAccountModule.ts"
import { calls, eventsOf, exactlyOne, finalFrom, sameAddress, unverified } from "./Common.ts"

/** What the service prepared for one create_policy_grant. */
export interface ExpectedGrant {
  readonly pkg: SpendAccountPackage
  /** The gateway's grant id (`g_…`): the create's nonce on chain. */
  readonly grantId: string
  readonly owner: string
  readonly delegate: string
  readonly poolId: string
  readonly coinType: string
  readonly sessionCap: bigint
  readonly maxPerPayment: bigint
  readonly expiryMs: bigint
  readonly policyIds: ReadonlyArray<bigint>
}

const samePolicySet = (a: ReadonlyArray<bigint>, b: ReadonlyArray<bigint>) => {
  const x = [...new Set(a)].sort()
  const y = [...new Set(b)].sort()
  return x.length === y.length && x.every((v, i) => v === y[i])
}

/**
 * A create is verified when it is final, sent by the owner, succeeded, called
 * create_policy_grant, and emitted exactly one GrantCreated whose every field
 * (max_per_payment included) equals what was prepared, its nonce this grant's id.
 */
export const verifyGrantCreated = (expected: ExpectedGrant, tx: ChainTransaction) =>
  Effect.gen(function*() {
    yield* finalFrom(tx, expected.owner)
    yield* calls(tx, expected.pkg, ["create_policy_grant"])
    const event = yield* exactlyOne(eventsOf(tx, expected.pkg, "GrantCreated", Events.GrantCreated), "GrantCreated")
    const mismatch = (field: string, want: unknown, got: unknown) => unverified(field, `expected ${String(want)}, got ${String(got)}`)
    if (toHex(Uint8Array.from(event.nonce)) !== toHex(nonceBytes(expected.grantId))) return yield* unverified("nonce", `is not ${expected.grantId}`)
    if (!sameAddress(event.pool_id, expected.poolId)) return yield* mismatch("pool", expected.poolId, event.pool_id)
    if (!sameAddress(event.owner, expected.owner)) return yield* mismatch("owner", expected.owner, event.owner)
    if (!sameAddress(event.delegate, expected.delegate)) return yield* mismatch("delegate", expected.delegate, event.delegate)
    if (event.coin_type !== typeNameOf(expected.coinType)) return yield* mismatch("coin_type", typeNameOf(expected.coinType), event.coin_type)
    if (BigInt(event.session_cap) !== expected.sessionCap) return yield* mismatch("session_cap", expected.sessionCap, event.session_cap)
    if (BigInt(event.max_per_payment) !== expected.maxPerPayment) {
      return yield* mismatch("max_per_payment", expected.maxPerPayment, event.max_per_payment)
    }
    if (BigInt(event.expiry_ms) !== expected.expiryMs) return yield* mismatch("expiry", expected.expiryMs, event.expiry_ms)
    const policyIds = event.policy_ids.map(BigInt)
    if (!samePolicySet(policyIds, expected.policyIds)) {
      return yield* mismatch("policy set", `[${expected.policyIds.join(",")}]`, `[${policyIds.join(",")}]`)
    }
    return { grantObjectId: event.grant_id }
  })
