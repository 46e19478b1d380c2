import { Schema } from "effect"
import { described, documented } from "./Doc.ts"
import { PositiveAtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { ExpiresAtInput } from "./ExpiresAt.ts"
import { SpendingWindow } from "./SpendingWindow.ts"

/** One spending scope per asset, as the owner asks for it on create. */
export const AssetScope = Schema.Struct({
  asset: described(CoinType, "The coin type the grant pays in; one scope per coin type."),
  totalBudgetAtomic: described(PositiveAtomicAmount, "The most the agent may ever pay from this grant, in atomic units."),
  maxPerPaymentAtomic: described(PositiveAtomicAmount, "The most one payment may be, in atomic units."),
  expiresAt: Schema.optionalKey(documented(
    ExpiresAtInput,
    "When the grant stops paying: an ISO 8601 instant with a time zone, or milliseconds since the epoch; absent or null for never.",
    "2026-12-31T23:59:59Z"
  )),
  /** At most this much per period besides the total budget; omitted or null for none. */
  window: Schema.optionalKey(described(
    Schema.NullOr(SpendingWindow),
    "At most window.limitAtomic may be paid per period, besides the total budget (at least maxPerPaymentAtomic, at most totalBudgetAtomic); absent or null for none."
  ))
}).pipe(
  Schema.check(
    Schema.makeFilter((scope) =>
      BigInt(scope.maxPerPaymentAtomic) <= BigInt(scope.totalBudgetAtomic) || {
        path: ["maxPerPaymentAtomic"],
        issue: "must not exceed totalBudgetAtomic"
      }
    ),
    // A window below the per-payment cap would refuse payments the cap allows; above the budget it limits nothing.
    Schema.makeFilter((scope) => {
      if (scope.window === undefined || scope.window === null) return true
      const limit = BigInt(scope.window.limitAtomic)
      if (limit < BigInt(scope.maxPerPaymentAtomic)) {
        return { path: ["window", "limitAtomic"], issue: `must be at least maxPerPaymentAtomic (${scope.maxPerPaymentAtomic})` }
      }
      if (limit > BigInt(scope.totalBudgetAtomic)) {
        return { path: ["window", "limitAtomic"], issue: `must not exceed totalBudgetAtomic (${scope.totalBudgetAtomic})` }
      }
      return true
    })
  )
)
export type AssetScope = typeof AssetScope.Type
