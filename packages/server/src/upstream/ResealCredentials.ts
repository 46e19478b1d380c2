import { Effect, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { storeDecoded, storeUnavailable } from "../storage/Codecs.ts"
import { SellerCredentials } from "./SellerCredentials.ts"

const SealedRow = Schema.Struct({ serviceId: Schema.String, revision: Schema.Number, sealed: Schema.String, owner: Schema.String })

/**
 * After a CREDENTIALS_KEY rotation: every seller's credential still sealed under a key of
 * CREDENTIALS_KEY_PREVIOUS is sealed anew under CREDENTIALS_KEY, each with a compare-and-set (a replica doing the
 * same at once, or a seller's edit meanwhile, wins; the text it wrote is then already current). One line says
 * how many moved and how many open under no key; the operator drops the previous keys once none is left under them.
 */
export const resealCredentials = Effect.fn("SellerCredentials.reseal")(function*() {
  const sql = yield* SqlClient.SqlClient
  const credentials = yield* SellerCredentials
  const rows = yield* SqlSchema.findAll({
    Request: Schema.Void,
    Result: SealedRow,
    execute: () =>
      sql`SELECT r.service_id, r.revision, r.upstream_credential AS sealed, s.owner_address AS owner
          FROM service_revisions r JOIN services s ON s.id = r.service_id WHERE r.upstream_credential IS NOT NULL`
  })(undefined).pipe(storeDecoded)
  let resealed = 0
  let unreadable = 0
  for (const row of rows) {
    const fresh = credentials.reseal(row.serviceId, row.owner, row.sealed)
    if (Option.isNone(fresh)) {
      if (Option.isNone(credentials.open(row.serviceId, row.owner, row.sealed))) unreadable++
      continue
    }
    yield* sql`UPDATE service_revisions SET upstream_credential = ${fresh.value}
               WHERE service_id = ${row.serviceId} AND revision = ${row.revision} AND upstream_credential = ${row.sealed}`.pipe(storeUnavailable)
    resealed++
  }
  yield* Effect.logInfo("sellers' credentials re-sealed under CREDENTIALS_KEY").pipe(Effect.annotateLogs({ resealed, unreadable, credentials: rows.length }))
  return { resealed, unreadable, credentials: rows.length }
})
