import { Schema } from "effect"
import { described, documented, Example } from "./Doc.ts"
import { AtomicAmount, PositiveAtomicAmount } from "./Amount.ts"
import { CoinType } from "./CoinType.ts"
import { ObjectId, SuiAddress } from "./SuiAddress.ts"

/** An owner's on-chain `Pool<T>` for one coin type, as the chain reports it. */
export const SpendAccount = Schema.Struct({
  coinType: described(CoinType, "The coin type the pool holds."),
  pool: described(ObjectId, "The owner's Pool object on chain."),
  /** The package's shared Registry, which every call into the pool names first (its package version gates the call). */
  registry: described(ObjectId, "The gateway's registry the pool is derived from."),
  balance: described(AtomicAmount, "What the pool holds now, in atomic units.")
})

export type SpendAccount = typeof SpendAccount.Type

export const SpendAccountList = Schema.Struct({ spendAccounts: described(Schema.Array(SpendAccount), "The owner's pools.") })

export const PrepareSpendAccount = Schema.Struct({
  asset: described(CoinType, "The coin type to fund."),
  depositAtomic: described(PositiveAtomicAmount, "How much to deposit, in atomic units.")
})

export const PreparedSpendAccount = Schema.Struct({
  asset: described(CoinType, "The coin type funded."),
  moveTarget: documented(
    Schema.String,
    "The Move function the transaction calls: spend_account::create_pool for a first deposit, spend_account::deposit after.",
    "0x5f0e3c3b8f1a4b2e9d7c6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d::spend_account::deposit"
  ),
  txKindBytes: documented(Schema.String, "The transaction kind to sign and execute in the owner's wallet, base64.", Example.base64),
  sender: described(SuiAddress, "Who must sign it: the owner.")
})
