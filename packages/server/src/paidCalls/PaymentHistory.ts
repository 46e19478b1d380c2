import { Context, Effect, Layer, Option, Schema } from "effect"
import { Invalid, type NotFound, type Unavailable } from "@gateway/domain/Errors"
import type { DelegatedSignerId, ServiceId } from "@gateway/domain/Ids"
import { PaymentItem, type PaymentList, type PaymentOutcome } from "@gateway/domain/PaymentHistory"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { Catalog } from "../catalog/Catalog.ts"
import { Signers } from "../signers/Signers.ts"
import type { PaymentListCursor, PaymentRecord } from "./PaymentReads.ts"
import { PaymentRepo } from "./PaymentRepo.ts"

const DEFAULT_LIMIT = 50

/** A cursor is the last item's time (epoch ms) and digest, opaque to clients. */
const CURSOR = /^([0-9]{1,15})\.([1-9A-HJ-NP-Za-km-z]{32,44})$/

const encodeCursor = (r: PaymentRecord) => Buffer.from(`${r.createdAt.getTime()}.${r.digest}`).toString("base64url")

const decodeCursor = (cursor: string | undefined): Effect.Effect<Option.Option<PaymentListCursor>, Invalid> => {
  if (cursor === undefined) return Effect.succeed(Option.none())
  const match = CURSOR.exec(Buffer.from(cursor, "base64url").toString())
  if (match === null || match[1] === undefined || match[2] === undefined) {
    return Effect.fail(new Invalid({ message: "The request is invalid", reason: "query.cursor: not a cursor this server issued" }))
  }
  return Effect.succeed(Option.some({ createdAt: new Date(Number(match[1])), digest: match[2] }))
}

const outcomeOf = (r: PaymentRecord): PaymentOutcome => {
  switch (r.status) {
    case "forwarded":
      return { state: "forwarded", reason: null, upstreamStatus: r.upstreamStatus }
    case "refused":
      return { state: "refused", reason: r.refusal, upstreamStatus: null }
    case "forwarding":
      return { state: "in_flight", reason: null, upstreamStatus: null }
    case "upstream_failed":
      return { state: "upstream_failed", reason: null, upstreamStatus: r.upstreamStatus }
    case "settling":
      return { state: "settling", reason: null, upstreamStatus: r.upstreamStatus }
    case "settled":
      return { state: "settled", reason: null, upstreamStatus: r.upstreamStatus }
    case "not_charged":
      return { state: "not_charged", reason: null, upstreamStatus: r.upstreamStatus }
    case "settlement_failed":
      return { state: "settlement_failed", reason: r.settleError, upstreamStatus: r.upstreamStatus }
  }
}

const decodeItem = Schema.decodeUnknownSync(PaymentItem)

const itemOf = (r: PaymentRecord): PaymentItem =>
  decodeItem({
    digest: r.digest,
    serviceId: r.serviceId,
    serviceName: r.serviceName,
    amount: r.amount,
    asset: r.asset,
    recipient: r.recipient,
    payer: r.payer,
    grantId: r.grantId,
    grantObjectId: r.grantObjectId,
    createdAt: r.createdAt.toISOString(),
    outcome: outcomeOf(r)
  })

type Query = { readonly limit?: number; readonly cursor?: string }

/** The payments agents made through the gateway, listed for the signer's owner and for the service's seller. */
export class PaymentHistory extends Context.Service<PaymentHistory, {
  forSigner(owner: SuiAddress, id: DelegatedSignerId, query: Query): Effect.Effect<PaymentList, NotFound | Invalid | Unavailable>
  forService(seller: SuiAddress, id: ServiceId, query: Query): Effect.Effect<PaymentList, NotFound | Invalid | Unavailable>
}>()("@gateway/server/PaymentHistory") {
  static readonly layer = Layer.effect(
    PaymentHistory,
    Effect.gen(function*() {
      const repo = yield* PaymentRepo
      const signers = yield* Signers
      const catalog = yield* Catalog

      const page = (
        list: (limit: number, cursor: Option.Option<PaymentListCursor>) => Effect.Effect<ReadonlyArray<PaymentRecord>, Unavailable>,
        query: Query
      ) =>
        Effect.gen(function*() {
          const limit = query.limit ?? DEFAULT_LIMIT
          const cursor = yield* decodeCursor(query.cursor)
          const rows = yield* list(limit + 1, cursor)
          const shown = rows.slice(0, limit)
          const last = shown[shown.length - 1]
          return {
            payments: shown.map(itemOf),
            nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last) : null
          }
        })

      return PaymentHistory.of({
        // Ownership first: another owner's signer or seller's service answers the NOT_FOUND its other routes give.
        // By the signer's grant objects, not a signer id kept on the payment: a payment made before its grant was
        // finalized (refused, but money moved) shows once the grant is bound to its object, under the grant's id.
        forSigner: Effect.fn("PaymentHistory.forSigner")(function*(owner, id, query) {
          const signer = yield* signers.get(owner, id)
          const grantIds = new Map(signer.grants.flatMap((g) => g.grantObjectId === null ? [] : [[g.grantObjectId, g.id] as const]))
          const list = yield* page((limit, cursor) => repo.listForGrants([...grantIds.keys()], limit, cursor), query)
          return { ...list, payments: list.payments.map((p) => ({ ...p, grantId: p.grantId ?? grantIds.get(p.grantObjectId) ?? null })) }
        }),
        forService: Effect.fn("PaymentHistory.forService")(function*(seller, id, query) {
          yield* catalog.manage(seller, id)
          return yield* page((limit, cursor) => repo.listForService(id, limit, cursor), query)
        })
      })
    })
  )
}
