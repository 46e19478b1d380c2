import { Schema } from "effect"
import { PositiveAtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { ExpiresAtInput } from "./ExpiresAt.ts"

/** One spending scope per asset, as the owner asks for it on create. */
export const AssetScope = Schema.Struct({
  asset: CoinType,
  totalBudgetAtomic: PositiveAtomicAmount,
  maxPerPaymentAtomic: PositiveAtomicAmount,
  expiresAt: Schema.optionalKey(ExpiresAtInput)
}).pipe(
  Schema.check(
    Schema.makeFilter((scope) =>
      BigInt(scope.maxPerPaymentAtomic) <= BigInt(scope.totalBudgetAtomic) || {
        path: ["maxPerPaymentAtomic"],
        issue: "must not exceed totalBudgetAtomic"
      }
    )
  )
)
export type AssetScope = typeof AssetScope.Type
