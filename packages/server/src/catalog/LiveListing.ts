import { Effect, Option, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import { BigIntColumn, Count, storeDecoded } from "../storage/Codecs.ts"
import { withRevisions } from "./CatalogReads.ts"
import { ServiceRow, type ServiceWithRevisions } from "./StoredService.ts"

/** One page of live services, each with its place in activation order, and how many match in all. */
export interface LivePage {
  readonly count: number
  readonly rows: ReadonlyArray<{ readonly seq: bigint; readonly entry: ServiceWithRevisions }>
}

/** `%`, `_` and `\` in a search are literal characters, not patterns. */
const likePattern = (q: string) => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

const LiveQuery = Schema.Struct({ pattern: Schema.NullOr(Schema.String), afterSeq: Schema.NullOr(Schema.String), limit: Schema.Number })

export const listLive = (sql: SqlClient.SqlClient) => {
  /** The live services a search matches, as `match` and `after` fragments of the request. */
  const liveWhere = (r: { readonly pattern: string | null; readonly afterSeq: string | null }) =>
    sql.and([
      sql`status = 'live'`,
      ...(r.pattern === null ? [] : [sql`search LIKE ${r.pattern}`]),
      ...(r.afterSeq === null ? [] : [sql`live_seq > ${r.afterSeq}`])
    ])
  const liveCount = SqlSchema.findOne({
    Request: LiveQuery,
    Result: Schema.Struct({ n: Count }),
    execute: (r) => sql`SELECT count(*) AS n FROM services WHERE ${liveWhere({ ...r, afterSeq: null })}`
  })
  const livePage = SqlSchema.findAll({
    Request: LiveQuery,
    Result: Schema.Struct({ ...ServiceRow.fields, liveSeq: BigIntColumn }),
    execute: (r) =>
      sql`SELECT id, owner_address, status, active_revision, draft_revision, created_at, updated_at, live_seq FROM services
          WHERE ${liveWhere(r)} ORDER BY live_seq LIMIT ${r.limit}`
  })
  const revisionsOf = withRevisions(sql)
  return ({ q, limit, afterSeq }: { q: string | undefined; limit: number; afterSeq: Option.Option<bigint> }): Effect.Effect<LivePage, Unavailable> =>
    Effect.gen(function*() {
      // One snapshot for the count and the page, so `count` always describes the rows beside it.
      yield* sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY`
      const query = {
        pattern: q === undefined || q.trim() === "" ? null : likePattern(q.trim()),
        afterSeq: Option.match(afterSeq, { onNone: () => null, onSome: (seq) => seq.toString() }),
        limit
      }
      const { n } = yield* liveCount(query)
      const rows = yield* livePage(query)
      const entries = yield* revisionsOf(rows)
      return { count: n, rows: entries.map((entry, i) => ({ seq: rows[i]?.liveSeq ?? 0n, entry })) }
    }).pipe(sql.withTransaction, storeDecoded, Effect.withSpan("CatalogRepo.listLive"))
}
