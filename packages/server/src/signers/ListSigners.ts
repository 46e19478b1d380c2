import { Effect, Option } from "effect"
import { viewOf } from "@gateway/domain/signer/SignerView"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { currentReadAt } from "./CurrentReadAt.ts"
import { withPendingKinds } from "./PendingKinds.ts"
import { invalid } from "./SignerErrors.ts"
import { SignerRepo } from "./SignerRepo.ts"
import { windowsOnChain } from "./WindowsOnChain.ts"

export const listSigners = Effect.fn("Signers.list")(function*(owner: SuiAddress, query: { limit?: number; cursor?: string }) {
  const repo = yield* SignerRepo
  const limit = query.limit ?? 50
  const cursor = query.cursor === undefined ? undefined : Buffer.from(query.cursor, "base64url").toString()
  // A positive safe integer, as every seq this server issues is.
  if (cursor !== undefined && !/^[1-9][0-9]{0,14}$/.test(cursor)) return yield* invalid("query.cursor: not a cursor this server issued")
  const signers = yield* repo.list(owner, limit + 1, Option.map(Option.fromNullishOr(cursor), BigInt))
  const page = signers.slice(0, limit)
  // Read after the store, so the window figures are never older than the grants they describe.
  const windows = yield* windowsOnChain(page)
  const at = yield* currentReadAt
  const last = page[page.length - 1]
  const views = page.map((signer) => viewOf(signer, at, windows))
  const pending = views.filter((view) => view.grants.some((grant) => grant.status === "pending")).map((view) => view.id)
  const kinds = yield* repo.createKinds(owner, pending)
  return {
    delegatedSigners: views.map((view) => withPendingKinds(view, kinds)),
    nextCursor: signers.length > limit && last !== undefined ? Buffer.from(last.seq.toString()).toString("base64url") : null
  }
})
