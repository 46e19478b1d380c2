import { Effect, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { DelegatedSignerView } from "@gateway/domain/DelegatedSigner"
import type { Unavailable } from "@gateway/domain/Errors"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { storeDecoded } from "../storage/Codecs.ts"
import { CreateResponseColumn } from "./SignerColumns.ts"

/** Create kinds by grant id: what each grant's create answered, for the grants still pending. */
export type PendingKinds = ReadonlyMap<string, string>

/**
 * The create kinds of the owner's signers, read from the create response the
 * store keeps for idempotent replays: the same bytes the owner was first given,
 * so a page reloaded before signing signs exactly what create prepared.
 */
export const findCreateKinds = (sql: SqlClient.SqlClient) => {
  const responsesOf = SqlSchema.findAll({
    Request: Schema.Struct({ owner: Schema.String, ids: Schema.Array(Schema.String) }),
    Result: Schema.Struct({ createResponse: CreateResponseColumn }),
    execute: ({ owner, ids }) =>
      sql`SELECT create_response FROM delegated_signers WHERE owner_address = ${owner} AND id IN ${sql.in(ids)}`
  })
  return (owner: SuiAddress, signerIds: ReadonlyArray<string>): Effect.Effect<PendingKinds, Unavailable> =>
    signerIds.length === 0
      ? Effect.succeed(new Map())
      : responsesOf({ owner, ids: signerIds }).pipe(
        Effect.map((rows) => new Map(rows.flatMap((row) => row.createResponse.grants.map((grant) => [grant.grantId, grant.txKindBytes] as const)))),
        storeDecoded,
        Effect.withSpan("SignerRepo.createKinds")
      )
}

/** The view with each pending grant's create kind beside it; grants in any other status never carry one. */
export const withPendingKinds = (view: DelegatedSignerView, kinds: PendingKinds): DelegatedSignerView => ({
  ...view,
  grants: view.grants.map((grant) => {
    const kind = grant.status === "pending" ? kinds.get(grant.id) : undefined
    return kind === undefined ? grant : { ...grant, createTxKindBytes: kind }
  })
})
