import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { PaymentSessions } from "./PaymentSessions.ts"

/** `POST /v1/sessions/:id/close`: no owner session; the final voucher's signature is the authorization. */
export const PaymentSessionsHandlers = HttpApiBuilder.group(
  Api,
  "paymentSessions",
  Effect.fn(function*(handlers) {
    const sessions = yield* PaymentSessions
    return handlers.handle("close", ({ params, payload }) => sessions.close(params.id, payload))
  })
)
