import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { CurrentOwner } from "@gateway/domain/api/OwnerAuth"
import { PaymentHistory } from "../paidCalls/PaymentHistory.ts"
import { PaymentSessions } from "../paidCalls/sessions/PaymentSessions.ts"
import { Signers } from "./Signers.ts"

export const DelegatedSignersHandlers = HttpApiBuilder.group(
  Api,
  "delegatedSigners",
  Effect.fn(function*(handlers) {
    const signers = yield* Signers
    const payments = yield* PaymentHistory
    const sessions = yield* PaymentSessions
    return handlers
      .handle("create", ({ headers, payload }) =>
        CurrentOwner.use(({ address }) => signers.create(address, headers["idempotency-key"], payload)))
      .handle("list", ({ query }) => CurrentOwner.use(({ address }) => signers.list(address, query)))
      .handle("get", ({ params }) =>
        CurrentOwner.use(({ address }) =>
          Effect.map(signers.get(address, params.id), (delegatedSigner) => ({ delegatedSigner }))))
      .handle("manifest", ({ params }) => CurrentOwner.use(({ address }) => signers.manifest(address, params.id)))
      .handle("payments", ({ params, query }) => CurrentOwner.use(({ address }) => payments.forSigner(address, params.id, query)))
      .handle("sessions", ({ params }) => CurrentOwner.use(({ address }) => sessions.forSigner(address, params.id)))
      .handle("finalizeCreate", ({ params, payload }) =>
        CurrentOwner.use(({ address }) => signers.finalize(address, "finalizeCreate", params.id, params.grantId, payload.digest)))
      .handle("revoke", ({ params }) => CurrentOwner.use(({ address }) => signers.prepareRevoke(address, params.id)))
      .handle("finalizeRevoke", ({ params, payload }) =>
        CurrentOwner.use(({ address }) => signers.finalize(address, "finalizeRevoke", params.id, params.grantId, payload.digest)))
      .handle("preparePause", ({ params }) => CurrentOwner.use(({ address }) => signers.preparePause(address, params.id)))
      .handle("finalizePause", ({ params, payload }) =>
        CurrentOwner.use(({ address }) => signers.finalize(address, "finalizePause", params.id, params.grantId, payload.digest)))
      .handle("prepareResume", ({ params }) => CurrentOwner.use(({ address }) => signers.prepareResume(address, params.id)))
      .handle("finalizeResume", ({ params, payload }) =>
        CurrentOwner.use(({ address }) => signers.finalize(address, "finalizeResume", params.id, params.grantId, payload.digest)))
  })
)
