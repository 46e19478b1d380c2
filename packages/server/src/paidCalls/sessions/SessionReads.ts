import { toBase64 } from "@mysten/sui/utils"
import { Effect, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import { atomic } from "@gateway/domain/Amount"
import type { Unavailable } from "@gateway/domain/Errors"
import { type PaymentSessionView } from "@gateway/domain/PaymentSessionView"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { CoinType } from "@gateway/domain/CoinType"
import { ObjectId } from "@gateway/domain/SuiAddress"
import { storeDecoded } from "../../storage/Codecs.ts"
import { COLUMNS, recordOf, Row, type SessionRecord } from "./SessionRows.ts"

export type SessionListing = PaymentSessionView

/** The most sessions one listing returns, newest first. */
const LIST_LIMIT = 100

const viewOf = (r: SessionRecord): PaymentSessionView => ({
  sessionId: ObjectId.make(r.session.sessionId),
  grantObjectId: ObjectId.make(r.session.grantObjectId),
  delegate: SuiAddress.make(r.delegate),
  payee: SuiAddress.make(r.session.payee),
  asset: CoinType.make(r.session.coinType),
  deposit: atomic(r.session.deposit),
  used: atomic(r.session.charged),
  calls: r.calls.toString(),
  claimed: atomic(r.session.claimed),
  unclaimed: atomic(r.session.charged > r.session.claimed ? r.session.charged - r.session.claimed : 0n),
  returned: r.returned === null ? null : atomic(r.returned),
  expiresAt: new Date(Number(r.session.expiryMs)).toISOString(),
  state: r.session.state,
  closeDigest: r.closeDigest,
  openedAt: r.openedAt.toISOString(),
  voucher: r.chargedSignature === null ? null : { cumulativeAmount: atomic(r.session.charged), signature: toBase64(r.chargedSignature) }
})

/** The sessions paying one payee, or drawing on some grants, newest first. */
export const listSessions = (sql: SqlClient.SqlClient) => {
  const byPayee = SqlSchema.findAll({
    Request: Schema.String,
    Result: Row,
    execute: (payee) =>
      sql`SELECT ${sql.literal(COLUMNS)} FROM payment_sessions s JOIN grants g ON g.grant_object_id = s.grant_object_id
          WHERE s.payee = ${payee} ORDER BY s.opened_at DESC LIMIT ${LIST_LIMIT}`
  })
  const byGrants = SqlSchema.findAll({
    Request: Schema.Array(Schema.String),
    Result: Row,
    execute: (ids) =>
      sql`SELECT ${sql.literal(COLUMNS)} FROM payment_sessions s JOIN grants g ON g.grant_object_id = s.grant_object_id
          WHERE ${sql.in("s.grant_object_id", ids)} ORDER BY s.opened_at DESC LIMIT ${LIST_LIMIT}`
  })
  return (filter: { readonly payee: string } | { readonly grantObjectIds: ReadonlyArray<string> }): Effect.Effect<ReadonlyArray<SessionListing>, Unavailable> =>
    ("payee" in filter ? byPayee(filter.payee) : filter.grantObjectIds.length === 0 ? Effect.succeed([]) : byGrants(filter.grantObjectIds)).pipe(
      Effect.map((rows) => rows.map((row) => viewOf(recordOf(row)))),
      storeDecoded,
      Effect.withSpan("PaymentSessionRepo.list")
    )
}
