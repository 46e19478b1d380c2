import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { UnsupportedAsset } from "../Errors.ts"
import { PreparedSpendAccount, PrepareSpendAccount, SpendAccountList } from "../SpendAccount.ts"
import { OwnerAuth } from "./OwnerAuth.ts"

export class SpendAccountsApi extends HttpApiGroup.make("spendAccounts")
  .add(
    HttpApiEndpoint.get("list", "/", { success: SpendAccountList }),
    HttpApiEndpoint.post("prepare", "/prepare", {
      payload: PrepareSpendAccount,
      success: PreparedSpendAccount,
      error: UnsupportedAsset
    })
  )
  .middleware(OwnerAuth)
  .prefix("/v1/spend-accounts")
{}
