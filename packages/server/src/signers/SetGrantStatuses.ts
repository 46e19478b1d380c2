import { Data, Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { GrantMove } from "@gateway/domain/signer/PlanPrepare"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { storeUnavailable } from "../storage/Codecs.ts"

/** Rolls a prepare step back when a grant is no longer in the state it was read in. */
class GrantMoved extends Data.TaggedError("GrantMoved") {}

export interface StatusChanges {
  readonly owner: SuiAddress
  readonly signerId: string
  readonly changes: ReadonlyArray<GrantMove>
  readonly now: Date
}

export const setGrantStatuses = (sql: SqlClient.SqlClient) => (input: StatusChanges): Effect.Effect<boolean, Unavailable> =>
  sql.withTransaction(
    Effect.gen(function*() {
      const at = input.now.toISOString()
      const locked = yield* sql<{ id: string; status: string }>`SELECT g.id, g.status FROM grants g
          JOIN delegated_signers s ON s.id = g.signer_id
          WHERE g.signer_id = ${input.signerId} AND s.owner_address = ${input.owner}
          ORDER BY g.position FOR UPDATE OF g`
      for (const change of input.changes) {
        if (!locked.some((g) => g.id === change.grantId && g.status === change.from)) return yield* new GrantMoved()
      }
      for (const change of input.changes) {
        yield* sql`UPDATE grants SET status = ${change.to}, updated_at = ${at} WHERE id = ${change.grantId}`
      }
      yield* sql`UPDATE delegated_signers SET updated_at = ${at} WHERE id = ${input.signerId}`
      return true
    })
  ).pipe(
    Effect.catchTag("GrantMoved", () => Effect.succeed(false)),
    storeUnavailable,
    Effect.withSpan("SignerRepo.setStatuses", { attributes: { "signer.id": input.signerId } })
  )
