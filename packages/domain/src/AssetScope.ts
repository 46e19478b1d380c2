import { Schema } from "effect"
import { PositiveAtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { ExpiresAtInput } from "./ExpiresAt.ts"
import { SpendingWindow } from "./SpendingWindow.ts"

/** One spending scope per asset, as the owner asks for it on create. */
export const AssetScope = Schema.Struct({
  asset: CoinType,
  totalBudgetAtomic: PositiveAtomicAmount,
  maxPerPaymentAtomic: PositiveAtomicAmount,
  expiresAt: Schema.optionalKey(ExpiresAtInput),
  /** At most this much per period besides the total budget; omitted or null for none. */
  window: Schema.optionalKey(Schema.NullOr(SpendingWindow))
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
