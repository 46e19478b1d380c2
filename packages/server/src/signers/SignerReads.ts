import { Effect, Option, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { CreatedDelegatedSigner, DelegatedSigner } from "@gateway/domain/DelegatedSigner"
import type { Unavailable } from "@gateway/domain/Errors"
import type { PayingGrant } from "@gateway/domain/payment/PayingGrant"
import { PolicyRule } from "@gateway/domain/Policy"
import type { RecordedDigest } from "@gateway/domain/signer/DecideFinalize"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { JsonColumn, storeDecoded } from "../storage/Codecs.ts"
import { CreateResponseColumn, RecordColumn, SignerColumn, SignerRow, signerJson } from "./SignerColumns.ts"

/** The create an idempotency key stands for: the request's hash, the response as first answered, and the signer now. */
export interface StoredCreate {
  readonly requestHash: string
  readonly createResponse: CreatedDelegatedSigner
  readonly signer: DelegatedSigner
}

const CreateRow = Schema.Struct({ requestHash: Schema.String, createResponse: CreateResponseColumn, signer: SignerColumn })

/** A `PayingGrant` as stored: the policy snapshot is JSON, decoded to its rules here. */
const PayingGrantRow = Schema.Struct({
  id: Schema.String,
  coinType: Schema.String,
  poolId: Schema.String,
  policyRules: JsonColumn(Schema.Array(PolicyRule))
})

export const findByIdempotencyKey = (sql: SqlClient.SqlClient) => {
  const createOf = SqlSchema.findOneOption({
    Request: Schema.Struct({ owner: Schema.String, key: Schema.String }),
    Result: CreateRow,
    execute: ({ owner, key }) =>
      sql`SELECT request_hash, create_response, ${signerJson(sql)} AS signer
          FROM delegated_signers s WHERE owner_address = ${owner} AND idempotency_key = ${key}`
  })
  return (owner: SuiAddress, key: string): Effect.Effect<Option.Option<StoredCreate>, Unavailable> =>
    createOf({ owner, key }).pipe(
      storeDecoded,
      Effect.withSpan("SignerRepo.findByIdempotencyKey")
    )
}

export const findSigner = (sql: SqlClient.SqlClient) => {
  const signerById = SqlSchema.findOneOption({
    Request: Schema.Struct({ owner: Schema.String, id: Schema.String }),
    Result: SignerRow,
    execute: ({ owner, id }) =>
      sql`SELECT ${signerJson(sql)} AS signer FROM delegated_signers s WHERE s.id = ${id} AND s.owner_address = ${owner}`
  })
  return (owner: SuiAddress, id: string): Effect.Effect<Option.Option<DelegatedSigner>, Unavailable> =>
    signerById({ owner, id }).pipe(
      Effect.map(Option.map((r) => r.signer)),
      storeDecoded,
      Effect.withSpan("SignerRepo.get", { attributes: { "signer.id": id } })
    )
}

export const findSignerWithDigest = (sql: SqlClient.SqlClient) => {
  const signerWithDigest = SqlSchema.findOneOption({
    Request: Schema.Struct({ owner: Schema.String, id: Schema.String, digest: Schema.String }),
    Result: Schema.Struct({ signer: SignerColumn, recorded: RecordColumn }),
    execute: ({ owner, id, digest }) =>
      sql`SELECT ${signerJson(sql)} AS signer,
          (SELECT json_build_object('grantId', t.grant_id, 'action', t.action) FROM grant_transitions t
            JOIN grants tg ON tg.id = t.grant_id JOIN delegated_signers ts ON ts.id = tg.signer_id
            WHERE t.digest = ${digest} AND ts.owner_address = ${owner}) AS recorded
          FROM delegated_signers s WHERE s.id = ${id} AND s.owner_address = ${owner}`
  })
  return (
    owner: SuiAddress,
    id: string,
    digest: string
  ): Effect.Effect<Option.Option<{ signer: DelegatedSigner; recorded: Option.Option<RecordedDigest> }>, Unavailable> =>
    signerWithDigest({ owner, id, digest }).pipe(
      Effect.map(Option.map((r) => ({ signer: r.signer, recorded: Option.fromNullishOr(r.recorded) }))),
      storeDecoded,
      Effect.withSpan("SignerRepo.getWithDigest", { attributes: { "signer.id": id } })
    )
}

export const pageOfSigners = (sql: SqlClient.SqlClient) => {
  const signersOf = SqlSchema.findAll({
    Request: Schema.Struct({ owner: Schema.String, limit: Schema.Number, beforeSeq: Schema.NullOr(Schema.String) }),
    Result: SignerRow,
    execute: ({ owner, limit, beforeSeq }) =>
      sql`SELECT ${signerJson(sql)} AS signer FROM delegated_signers s WHERE ${
        sql.and([sql`s.owner_address = ${owner}`, ...(beforeSeq === null ? [] : [sql`s.seq < ${beforeSeq}`])])
      } ORDER BY s.seq DESC LIMIT ${limit}`
  })
  return (owner: SuiAddress, limit: number, beforeSeq: Option.Option<bigint>): Effect.Effect<ReadonlyArray<DelegatedSigner>, Unavailable> =>
    signersOf({ owner, limit, beforeSeq: Option.getOrNull(Option.map(beforeSeq, String)) }).pipe(
      Effect.map((rows) => rows.map((r) => r.signer)),
      storeDecoded,
      Effect.withSpan("SignerRepo.list")
    )
}

export const findPayingGrant = (sql: SqlClient.SqlClient) => {
  const payingGrant = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: PayingGrantRow,
    execute: (grantObjectId) =>
      sql`SELECT g.id, g.coin_type, g.pool_id, s.policy_rules FROM grants g
          JOIN delegated_signers s ON s.id = g.signer_id WHERE g.grant_object_id = ${grantObjectId}`
  })
  return (grantObjectId: string): Effect.Effect<Option.Option<PayingGrant>, Unavailable> =>
    payingGrant(grantObjectId).pipe(
      storeDecoded,
      Effect.withSpan("SignerRepo.findPayingGrant", { attributes: { "grant.object_id": grantObjectId } })
    )
}
