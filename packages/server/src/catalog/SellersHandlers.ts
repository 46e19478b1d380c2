import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { CurrentOwner } from "@gateway/domain/api/OwnerAuth"
import { PaymentHistory } from "../paidCalls/PaymentHistory.ts"
import { PaymentSessions } from "../paidCalls/sessions/PaymentSessions.ts"
import { Catalog } from "./Catalog.ts"

export const SellersHandlers = HttpApiBuilder.group(
  Api,
  "sellers",
  Effect.fn(function*(handlers) {
    const catalog = yield* Catalog
    const payments = yield* PaymentHistory
    const sessions = yield* PaymentSessions
    return handlers
      .handle("register", ({ payload }) => CurrentOwner.use(({ address }) => catalog.register(address, payload)))
      .handle("manage", ({ params }) => CurrentOwner.use(({ address }) => catalog.manage(address, params.id)))
      .handle("edit", ({ params, payload }) => CurrentOwner.use(({ address }) => catalog.edit(address, params.id, payload)))
      .handle("activate", ({ params }) => CurrentOwner.use(({ address }) => catalog.activate(address, params.id)))
      .handle("payments", ({ params, query }) => CurrentOwner.use(({ address }) => payments.forService(address, params.id, query)))
      .handle("sessions", ({ params }) => CurrentOwner.use(({ address }) => sessions.forService(address, params.id)))
      .handle("claimSessions", ({ params }) => CurrentOwner.use(({ address }) => sessions.claimNow(address, params.id)))
  })
)
