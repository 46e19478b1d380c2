import { Effect, Option, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { DelegatedSigner } from "@gateway/domain/DelegatedSigner"
import type { Unavailable } from "@gateway/domain/Errors"
import type { Grant } from "@gateway/domain/Grant"
import type { DelegatedSignerId, GrantId } from "@gateway/domain/Ids"
import { applyDecision, type DigestRecord, digestRecordFor, type FinalizeDecision, type FinalizeStep } from "@gateway/domain/signer/DecideFinalize"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { onUniqueViolation, storeDecoded } from "../storage/Codecs.ts"
import { RecordRow, SignerRow, signerJsonOver } from "./SignerColumns.ts"

export type TransitionResult =
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "Applied"; readonly signer: DelegatedSigner }
  | { readonly _tag: "Kept"; readonly signer: DelegatedSigner }
  | { readonly _tag: "Refused"; readonly reason: string }
  /** A concurrent transaction recorded this digest (or bound its grant object) first. */
  | { readonly _tag: "DigestTaken" }

export interface TransitionInput {
  readonly owner: SuiAddress
  readonly signerId: DelegatedSignerId
  readonly grantId: GrantId
  readonly digest: string
  readonly step: FinalizeStep
  readonly now: Date
  /** Decides from the signer and the digest's record as read under the lock. */
  readonly decide: (locked: { readonly signer: DelegatedSigner; readonly grant: Grant; readonly record: DigestRecord }) => FinalizeDecision
}

export const transitionGrant = (sql: SqlClient.SqlClient) => {
  // Every grant of the signer locked in position order (as setStatuses locks them), and the aggregate built from
  // the locked rows: those are the rows' current versions, where a statement's snapshot would predate the wait.
  const lockedSigner = SqlSchema.findOneOption({
    Request: Schema.Struct({ owner: Schema.String, id: Schema.String }),
    Result: SignerRow,
    execute: ({ owner, id }) =>
      sql`WITH locked AS MATERIALIZED (
            SELECT g.* FROM grants g JOIN delegated_signers s ON s.id = g.signer_id
            WHERE g.signer_id = ${id} AND s.owner_address = ${owner}
            ORDER BY g.position FOR UPDATE OF g
          )
          SELECT ${signerJsonOver(sql, sql`locked`)} AS signer FROM delegated_signers s WHERE s.id = ${id} AND s.owner_address = ${owner}`
  })
  const recordOf = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: RecordRow,
    execute: (digest) =>
      sql`SELECT json_build_object('grantId', grant_id, 'action', action) AS recorded FROM grant_transitions WHERE digest = ${digest}`
  })
  return (input: TransitionInput): Effect.Effect<TransitionResult, Unavailable> =>
    sql.withTransaction(
      Effect.gen(function*() {
        const locked = yield* lockedSigner({ owner: input.owner, id: input.signerId })
        if (Option.isNone(locked)) return { _tag: "NotFound" } satisfies TransitionResult
        const { signer } = locked.value
        const grant = signer.grants.find((g) => g.id === input.grantId)
        if (grant === undefined) return { _tag: "NotFound" } satisfies TransitionResult
        // Its own statement, after the lock: a statement's snapshot predates the wait, and a finalize that
        // held the lock has recorded the digest since.
        const recorded = yield* recordOf(input.digest)
        const record = digestRecordFor(Option.flatMap(recorded, (r) => Option.fromNullishOr(r.recorded)), input.grantId)
        const decision = input.decide({ signer, grant, record })
        if (decision._tag === "Refuse") return { _tag: "Refused", reason: decision.reason } satisfies TransitionResult
        if (decision._tag === "Keep") return { _tag: "Kept", signer } satisfies TransitionResult
        const at = input.now.toISOString()
        // One statement: the digest, the grant and the signer's updated_at.
        yield* sql`WITH recorded AS (
              INSERT INTO grant_transitions (digest, grant_id, action, created_at)
              VALUES (${input.digest}, ${input.grantId}, ${input.step}, ${at})
            ), touched AS (
              UPDATE delegated_signers SET updated_at = ${at} WHERE id = ${input.signerId}
            )
            UPDATE grants SET status = ${decision.status},
              grant_object_id = COALESCE(${decision.grantObjectId}, grant_object_id), updated_at = ${at}
            WHERE id = ${input.grantId}`
        return { _tag: "Applied", signer: applyDecision(signer, grant.id, decision, input.now.getTime()) } satisfies TransitionResult
      })
    ).pipe(
      // A concurrent transaction recorded this digest (or bound this object) and committed first; the
      // failure has rolled this one back. The caller answers from the store, not UNAVAILABLE.
      onUniqueViolation(() => ({ _tag: "DigestTaken" }) satisfies TransitionResult),
      storeDecoded,
      Effect.withSpan("SignerRepo.transition", { attributes: { "signer.id": input.signerId, "grant.id": input.grantId, step: input.step } })
    )
}
