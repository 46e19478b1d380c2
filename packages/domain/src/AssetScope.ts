import { Schema } from "effect"
import { described } from "./Doc.ts"
import { PositiveAtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { ExpiresAtInput } from "./ExpiresAt.ts"
import { SpendingWindow } from "./SpendingWindow.ts"

/** One spending scope per asset, as the owner asks for it on create. */
export const AssetScope = Schema.Struct({
  asset: described(CoinType, "The coin type the grant pays in; one scope per coin type."),
  totalBudgetAtomic: described(PositiveAtomicAmount, "The most the agent may ever pay from this grant, in atomic units."),
  maxPerPaymentAtomic: described(PositiveAtomicAmount, "The most one payment may be, in atomic units."),
  expiresAt: Schema.optionalKey(described(ExpiresAtInput, "When the grant stops paying (ISO 8601); absent for never.")),
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
