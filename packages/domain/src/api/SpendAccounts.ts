import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { UnsupportedAsset } from "../Errors.ts"
import { PreparedSpendAccount, PrepareSpendAccount, SpendAccountList } from "../SpendAccount.ts"
import { OwnerAuth } from "./OwnerAuth.ts"

export class SpendAccountsApi extends HttpApiGroup.make("spendAccounts")
  .add(
    HttpApiEndpoint.get("list", "/", { success: SpendAccountList }).annotateMerge(OpenApi.annotations({
      summary: "List your spend accounts",
      description: "Your spend accounts (one pool per coin type) with their balances, read from the chain."
    })),
    HttpApiEndpoint.post("prepare", "/prepare", {
      payload: PrepareSpendAccount,
      success: PreparedSpendAccount,
      error: UnsupportedAsset
    }).annotateMerge(OpenApi.annotations({
      summary: "Prepare funding a spend account",
      description:
        "Answers the transaction kind that deposits depositAtomic of the asset into your spend account for it (creating the account if you have none), for you to sign and execute in your wallet. UNSUPPORTED_ASSET: the gateway does not accept this coin type."
    }))
  )
  .middleware(OwnerAuth)
  .prefix("/v1/spend-accounts")
{}
