import { Context, Data, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema, type Statement } from "effect/sql"
import { DelegatedSigner } from "@gateway/domain/DelegatedSigner"
import type { Unavailable } from "@gateway/domain/Errors"
import { Grant } from "@gateway/domain/Grant"
import type { DelegatedSignerId, GrantId } from "@gateway/domain/Ids"
import { applyDecision, type DigestRecord, digestRecordFor, type FinalizeDecision, type FinalizeStep, type RecordedDigest } from "@gateway/domain/signer/DecideFinalize"
import type { GrantMove } from "@gateway/domain/signer/PlanPrepare"
import type { PayingGrant } from "@gateway/domain/payment/PaymentAcceptance"
import { PolicyRule } from "@gateway/domain/Policy"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { JsonColumn, onUniqueViolation, storeDecoded, storeUnavailable } from "../storage/Codecs.ts"

/** The aggregate as the store hands it over: one JSON document, numbers too large for JSON as decimal strings. */
const StoredGrant = Schema.Struct({ ...Grant.fields, expiryMs: Schema.BigIntFromString })
const StoredSigner = Schema.Struct({ ...DelegatedSigner.fields, seq: Schema.BigIntFromString, grants: Schema.Array(StoredGrant) })
const StoredRecord = Schema.NullOr(Schema.Struct({ grantId: Schema.String, action: Schema.String }))

const SignerColumn = JsonColumn(StoredSigner)
const RecordColumn = JsonColumn(StoredRecord)

export interface NewSigner {
  readonly id: string
  readonly owner: SuiAddress
  readonly agentAddress: string
  readonly name: string
  readonly profileIds: ReadonlyArray<string>
  readonly policyIds: ReadonlyArray<string>
  readonly onChainPolicyIds: ReadonlyArray<number>
  readonly policyRules: ReadonlyArray<unknown>
  readonly idempotencyKey: string
  readonly requestHash: string
  readonly createResponse: string
  readonly grants: ReadonlyArray<{
    readonly id: string
    readonly coinType: string
    readonly poolId: string
    readonly sessionCap: string
    readonly maxPerPayment: string
    readonly expiryMs: string
    readonly kind: number
  }>
  readonly now: Date
}

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

/** A `PayingGrant` as stored: the policy snapshot is JSON, decoded to its rules here. */
const PayingGrantRow = Schema.Struct({
  id: Schema.String,
  coinType: Schema.String,
  poolId: Schema.String,
  policyRules: JsonColumn(Schema.Array(PolicyRule))
})

const SignerRow = Schema.Struct({ signer: SignerColumn })
const RecordRow = Schema.Struct({ recorded: RecordColumn })
const CreateRow = Schema.Struct({ requestHash: Schema.String, createResponse: Schema.String, signer: SignerColumn })

/** Rolls a prepare step back when a grant is no longer in the state it was read in. */
class GrantMoved extends Data.TaggedError("GrantMoved") {}

/**
 * SQL for delegated signers, their grants and the digests that moved them.
 * Every read answers the whole aggregate in one statement; rows never leave.
 */
export class SignerRepo extends Context.Service<SignerRepo, {
  /** The create an idempotency key stands for, with the signer as it is now. */
  findByIdempotencyKey(owner: SuiAddress, key: string): Effect.Effect<Option.Option<{ requestHash: string; createResponse: string; signer: DelegatedSigner }>, Unavailable>
  /** Inserts signer and grants atomically; `false` when the owner's idempotency key is already taken. */
  insert(signer: NewSigner): Effect.Effect<boolean, Unavailable>
  get(owner: SuiAddress, id: string): Effect.Effect<Option.Option<DelegatedSigner>, Unavailable>
  /**
   * The signer with what a digest is recorded for among the owner's grants,
   * read together; another owner's digests stay invisible.
   */
  getWithDigest(owner: SuiAddress, id: string, digest: string): Effect.Effect<Option.Option<{ signer: DelegatedSigner; recorded: Option.Option<RecordedDigest> }>, Unavailable>
  list(owner: SuiAddress, limit: number, beforeSeq: Option.Option<bigint>): Effect.Effect<ReadonlyArray<DelegatedSigner>, Unavailable>
  /**
   * Locks every grant of the owner's signer, lets `decide` choose the grant's
   * next state from the signer and the digest's record read under that lock,
   * records the digest and answers the signer as written, all in one
   * transaction: the loser of a race reads the winner's result.
   */
  transition(input: TransitionInput): Effect.Effect<TransitionResult, Unavailable>
  /**
   * Moves grants between states without a digest (prepare steps), in one
   * transaction, each only from the exact state it was read in; `false`, with
   * nothing changed, when any grant had moved meanwhile.
   */
  setStatuses(input: {
    owner: SuiAddress
    signerId: string
    changes: ReadonlyArray<GrantMove>
    now: Date
  }): Effect.Effect<boolean, Unavailable>
  /** The grant bound to an on-chain grant object, with its signer's policy rules; none when this gateway did not provision it. */
  findPayingGrant(grantObjectId: string): Effect.Effect<Option.Option<PayingGrant>, Unavailable>
}>()("@gateway/server/SignerRepo") {
  static readonly layer = Layer.effect(
    SignerRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const epochMs = (column: string) => sql.literal(`floor(extract(epoch FROM ${column}) * 1000)`)
      const grantJson = sql`json_build_object('id', g.id, 'coinType', g.coin_type, 'poolId', g.pool_id,
        'sessionCap', g.session_cap, 'maxPerPayment', g.max_per_payment, 'expiryMs', g.expiry_ms, 'kind', g.kind,
        'status', g.status, 'grantObjectId', g.grant_object_id, 'createdAtMs', ${epochMs("g.created_at")})`
      const signerFields = sql`'id', s.id, 'seq', s.seq::text, 'owner', s.owner_address, 'agentAddress', s.agent_address,
        'name', s.name, 'profileIds', s.profile_ids, 'policyIds', s.policy_ids, 'onChainPolicyIds', s.on_chain_policy_ids,
        'policyRules', s.policy_rules, 'createdAtMs', ${epochMs("s.created_at")}, 'updatedAtMs', ${epochMs("s.updated_at")}`
      /** The signer `s` with its grants, read from `grants` or from the rows a statement locked. */
      const signerJsonOver = (grants: Statement.Fragment) =>
        sql`json_build_object(${signerFields}, 'grants', COALESCE((SELECT json_agg(${grantJson} ORDER BY g.position)
          FROM ${grants} g WHERE g.signer_id = s.id), '[]'::json))`
      const signerJson = signerJsonOver(sql`grants`)

      const createOf = SqlSchema.findOneOption({
        Request: Schema.Struct({ owner: Schema.String, key: Schema.String }),
        Result: CreateRow,
        execute: ({ owner, key }) =>
          sql`SELECT request_hash, create_response, ${signerJson} AS signer
              FROM delegated_signers s WHERE owner_address = ${owner} AND idempotency_key = ${key}`
      })
      const payingGrant = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: PayingGrantRow,
        execute: (grantObjectId) =>
          sql`SELECT g.id, g.coin_type, g.pool_id, s.policy_rules FROM grants g
              JOIN delegated_signers s ON s.id = g.signer_id WHERE g.grant_object_id = ${grantObjectId}`
      })
      const signerById = SqlSchema.findOneOption({
        Request: Schema.Struct({ owner: Schema.String, id: Schema.String }),
        Result: SignerRow,
        execute: ({ owner, id }) =>
          sql`SELECT ${signerJson} AS signer FROM delegated_signers s WHERE s.id = ${id} AND s.owner_address = ${owner}`
      })
      const signerWithDigest = SqlSchema.findOneOption({
        Request: Schema.Struct({ owner: Schema.String, id: Schema.String, digest: Schema.String }),
        Result: Schema.Struct({ signer: SignerColumn, recorded: RecordColumn }),
        execute: ({ owner, id, digest }) =>
          sql`SELECT ${signerJson} AS signer,
              (SELECT json_build_object('grantId', t.grant_id, 'action', t.action) FROM grant_transitions t
                JOIN grants tg ON tg.id = t.grant_id JOIN delegated_signers ts ON ts.id = tg.signer_id
                WHERE t.digest = ${digest} AND ts.owner_address = ${owner}) AS recorded
              FROM delegated_signers s WHERE s.id = ${id} AND s.owner_address = ${owner}`
      })
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
              SELECT ${signerJsonOver(sql`locked`)} AS signer FROM delegated_signers s WHERE s.id = ${id} AND s.owner_address = ${owner}`
      })
      const recordOf = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: RecordRow,
        execute: (digest) =>
          sql`SELECT json_build_object('grantId', grant_id, 'action', action) AS recorded FROM grant_transitions WHERE digest = ${digest}`
      })
      const signersOf = SqlSchema.findAll({
        Request: Schema.Struct({ owner: Schema.String, limit: Schema.Number, beforeSeq: Schema.NullOr(Schema.String) }),
        Result: SignerRow,
        execute: ({ owner, limit, beforeSeq }) =>
          sql`SELECT ${signerJson} AS signer FROM delegated_signers s WHERE ${
            sql.and([sql`s.owner_address = ${owner}`, ...(beforeSeq === null ? [] : [sql`s.seq < ${beforeSeq}`])])
          } ORDER BY s.seq DESC LIMIT ${limit}`
      })

      return SignerRepo.of({
        findByIdempotencyKey: (owner, key) =>
          createOf({ owner, key }).pipe(
            storeDecoded,
            Effect.withSpan("SignerRepo.findByIdempotencyKey")
          ),

        findPayingGrant: (grantObjectId) =>
          payingGrant(grantObjectId).pipe(
            storeDecoded,
            Effect.withSpan("SignerRepo.findPayingGrant", { attributes: { "grant.object_id": grantObjectId } })
          ),

        insert: (s) =>
          sql.withTransaction(
            Effect.gen(function*() {
              const at = s.now.toISOString()
              yield* sql`INSERT INTO delegated_signers (id, owner_address, agent_address, name, profile_ids, policy_ids,
                  on_chain_policy_ids, policy_rules, idempotency_key, request_hash, create_response, created_at, updated_at)
                VALUES (${s.id}, ${s.owner}, ${s.agentAddress}, ${s.name}, ${JSON.stringify(s.profileIds)}::jsonb,
                  ${JSON.stringify(s.policyIds)}::jsonb, ${JSON.stringify(s.onChainPolicyIds)}::jsonb,
                  ${JSON.stringify(s.policyRules)}::jsonb, ${s.idempotencyKey}, ${s.requestHash}, ${s.createResponse}, ${at}, ${at})`
              for (const [position, g] of s.grants.entries()) {
                yield* sql`INSERT INTO grants (id, signer_id, position, coin_type, pool_id, session_cap, max_per_payment,
                    expiry_ms, kind, status, created_at, updated_at)
                  VALUES (${g.id}, ${s.id}, ${position}, ${g.coinType}, ${g.poolId}, ${g.sessionCap}, ${g.maxPerPayment},
                    ${g.expiryMs}, ${g.kind}, 'pending', ${at}, ${at})`
              }
              return true
            })
          ).pipe(
            onUniqueViolation(() => false),
            storeUnavailable,
            Effect.withSpan("SignerRepo.insert", { attributes: { "signer.id": s.id } })
          ),

        get: (owner, id) =>
          signerById({ owner, id }).pipe(
            Effect.map(Option.map((r) => r.signer)),
            storeDecoded,
            Effect.withSpan("SignerRepo.get", { attributes: { "signer.id": id } })
          ),

        getWithDigest: (owner, id, digest) =>
          signerWithDigest({ owner, id, digest }).pipe(
            Effect.map(Option.map((r) => ({ signer: r.signer, recorded: Option.fromNullishOr(r.recorded) }))),
            storeDecoded,
            Effect.withSpan("SignerRepo.getWithDigest", { attributes: { "signer.id": id } })
          ),

        list: (owner, limit, beforeSeq) =>
          signersOf({ owner, limit, beforeSeq: Option.getOrNull(Option.map(beforeSeq, String)) }).pipe(
            Effect.map((rows) => rows.map((r) => r.signer)),
            storeDecoded,
            Effect.withSpan("SignerRepo.list")
          ),

        transition: (input) =>
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
          ),

        setStatuses: (input) =>
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
      })
    })
  )
}
