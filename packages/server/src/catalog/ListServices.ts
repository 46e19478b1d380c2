import { Effect, Option } from "effect"
import { Invalid } from "@gateway/domain/Errors"
import { CatalogRepo } from "./CatalogRepo.ts"
import { entryOf, entrySite } from "./ServiceEntry.ts"

/** Where a page starts: after the activation sequence number its cursor carries (base64url), or at the first live service. */
const afterCursor = (cursor: string | undefined): Effect.Effect<Option.Option<bigint>, Invalid> => {
  if (cursor === undefined) return Effect.succeed(Option.none())
  const decoded = Buffer.from(cursor, "base64url").toString()
  return /^[1-9][0-9]{0,18}$/.test(decoded)
    ? Effect.succeed(Option.some(BigInt(decoded)))
    : Effect.fail(new Invalid({ message: "The request is invalid", reason: "query.cursor: not a cursor this server issued" }))
}

const cursorOf = (seq: bigint) => Buffer.from(seq.toString()).toString("base64url")

/** One page of live services matching `q`, in activation order, with how many match in all. */
export const listServices = Effect.fn("Catalog.list")(function*(query: { q?: string; limit?: number; cursor?: string }) {
  const limit = query.limit ?? 50
  const after = yield* afterCursor(query.cursor)
  const page = yield* (yield* CatalogRepo).listLive({ q: query.q, limit: limit + 1, afterSeq: after })
  const site = yield* entrySite
  const rows = page.rows.slice(0, limit)
  const last = rows[rows.length - 1]
  return {
    count: page.count,
    services: rows.flatMap(({ entry }) =>
      Option.match(entry.active, {
        onNone: () => [],
        onSome: (active) => [entryOf(site, entry.service, active)]
      })),
    nextCursor: page.rows.length > limit && last !== undefined ? cursorOf(last.seq) : null
  }
})
