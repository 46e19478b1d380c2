import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { CurrentOwner } from "@gateway/domain/api/OwnerAuth"
import { SpendAccounts } from "./SpendAccounts.ts"

export const SpendAccountsHandlers = HttpApiBuilder.group(
  Api,
  "spendAccounts",
  Effect.fn(function*(handlers) {
    const accounts = yield* SpendAccounts
    return handlers
      .handle("list", () => CurrentOwner.use(({ address }) => Effect.map(accounts.list(address), (spendAccounts) => ({ spendAccounts }))))
      .handle("prepare", ({ payload }) =>
        CurrentOwner.use(({ address }) => accounts.prepare(address, payload.asset, BigInt(payload.depositAtomic))))
  })
)
