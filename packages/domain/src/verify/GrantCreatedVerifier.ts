import { normalizeSuiAddress, toHex } from "@mysten/sui/utils"
import { Effect } from "effect"
import type { ChainTransaction } from "../chain/ChainTransaction.ts"
import { windowArguments, type WindowTerms } from "../chain/GrantWindow.ts"
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
  readonly window: WindowTerms
  /** The recipients the grant was prepared to allow on chain; empty for any. */
  readonly recipients: ReadonlyArray<string>
  readonly policyIds: ReadonlyArray<bigint>
}

/** The same addresses, in any order: the module keeps the list as given, the gateway compares it as a set. */
const sameAddressSet = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => {
  const x = [...new Set(a.map((r) => normalizeSuiAddress(r)))].sort()
  const y = [...new Set(b.map((r) => normalizeSuiAddress(r)))].sort()
  return x.length === y.length && x.every((v, i) => v === y[i])
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
    const window = windowArguments(expected.window)
    if (event.window.kind !== window.kind || BigInt(event.window.period_ms) !== window.periodMs || BigInt(event.window.limit) !== window.limit) {
      return yield* mismatch(
        "window",
        `${window.kind}/${window.periodMs}/${window.limit}`,
        `${event.window.kind}/${event.window.period_ms}/${event.window.limit}`
      )
    }
    if (!sameAddressSet(event.recipients, expected.recipients)) {
      return yield* mismatch("recipients", `[${expected.recipients.join(",")}]`, `[${event.recipients.join(",")}]`)
    }
    const policyIds = event.policy_ids.map(BigInt)
    if (!samePolicySet(policyIds, expected.policyIds)) {
      return yield* mismatch("policy set", `[${expected.policyIds.join(",")}]`, `[${policyIds.join(",")}]`)
    }
    return { grantObjectId: event.grant_id }
  })
