import { Schema } from "effect"
import { AtomicAmount, PositiveAtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { ObjectId, SuiAddress } from "./SuiAddress.ts"

/** An owner's on-chain `Pool<T>` for one coin type, as the chain reports it. */
export const SpendAccount = Schema.Struct({
  coinType: CoinType,
  pool: ObjectId,
  /** The package's shared Registry, which every call into the pool names first (its package version gates the call). */
  registry: ObjectId,
  balance: AtomicAmount
})

export type SpendAccount = typeof SpendAccount.Type

export const SpendAccountList = Schema.Struct({ spendAccounts: Schema.Array(SpendAccount) })

export const PrepareSpendAccount = Schema.Struct({
  asset: CoinType,
  depositAtomic: PositiveAtomicAmount
})

export const PreparedSpendAccount = Schema.Struct({
  asset: CoinType,
  moveTarget: Schema.String,
  txKindBytes: Schema.String,
  sender: SuiAddress
})
