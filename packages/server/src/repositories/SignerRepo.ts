import { Context, Data, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import { GrantStatus } from "@gateway/domain/SignerStatus"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { storeUnavailable } from "../storage/StoreErrors.ts"

const Json = <S extends Schema.Top>(schema: S) =>
  Schema.Union([schema, Schema.fromJsonString(schema)])

export const GrantRow = Schema.Struct({
  id: Schema.String,
  signer_id: Schema.String,
  position: Schema.Number,
  coin_type: Schema.String,
  pool_id: Schema.String,
  session_cap: Schema.String,
  max_per_payment: Schema.String,
  expiry_ms: Schema.String,
  kind: Schema.Number,
  status: GrantStatus,
  grant_object_id: Schema.NullOr(Schema.String),
  created_at: Schema.Unknown,
  updated_at: Schema.Unknown
})
export type GrantRow = typeof GrantRow.Type

export const SignerRow = Schema.Struct({
  id: Schema.String,
  /** BIGINT identity, as the driver returns it (bigint); only ever compared and printed. */
  seq: Schema.Unknown,
  owner_address: Schema.String,
  agent_address: Schema.String,
  name: Schema.String,
  profile_ids: Json(Schema.Array(Schema.String)),
  policy_ids: Json(Schema.Array(Schema.String)),
  on_chain_policy_ids: Json(Schema.Array(Schema.Number)),
  policy_rules: Json(Schema.Array(Schema.Unknown)),
  created_at: Schema.Unknown,
  updated_at: Schema.Unknown
})
export type SignerRow = typeof SignerRow.Type

export interface SignerWithGrants {
  readonly signer: SignerRow
  readonly grants: ReadonlyArray<GrantRow>
}

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

/** What a locked grant may become; decided by the caller, purely, from the grant and what its digest is recorded for. */
export type GrantDecision<E> =
  | { readonly _tag: "Apply"; readonly status: GrantStatus; readonly grantObjectId?: string }
  | { readonly _tag: "Keep" }
  | { readonly _tag: "Refuse"; readonly error: E }

export type TransitionResult<E> =
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "Applied"; readonly grant: GrantRow }
  | { readonly _tag: "Kept"; readonly grant: GrantRow }
  | { readonly _tag: "Refused"; readonly error: E }
  /** A concurrent transaction recorded this digest (or bound its grant object) for another grant first. */
  | { readonly _tag: "DigestTaken" }

export interface TransitionInput<E> {
  readonly owner: SuiAddress
  readonly signerId: string
  readonly grantId: string
  readonly digest: string
  readonly action: string
  readonly now: Date
  readonly decide: (locked: LockedGrant) => GrantDecision<E>
}

export interface LockedGrant {
  readonly grant: GrantRow
  /** The action this digest was already recorded for on this grant, if any. */
  readonly recordedAction: Option.Option<string>
  /** Whether this digest is recorded for a different grant. */
  readonly digestUsedElsewhere: boolean
}

const toDate = (value: unknown) => new Date(value instanceof Date ? value : String(value))
export const iso = (value: unknown) => toDate(value).toISOString()

const uniqueViolation = (error: SqlError.SqlError) => error.reason._tag === "UniqueViolation"

/** Rolls a prepare step back when a grant is no longer in the state it was read in. */
class GrantMoved extends Data.TaggedError("GrantMoved") {}

/** SQL for delegated signers, their grants and the digests that moved them. */
export class SignerRepo extends Context.Service<SignerRepo, {
  findByIdempotencyKey(owner: SuiAddress, key: string): Effect.Effect<Option.Option<{ requestHash: string; createResponse: string }>, Unavailable>
  /** Inserts signer and grants atomically; `false` when the owner's idempotency key is already taken. */
  insert(signer: NewSigner): Effect.Effect<boolean, Unavailable>
  get(owner: SuiAddress, id: string): Effect.Effect<Option.Option<SignerWithGrants>, Unavailable>
  list(owner: SuiAddress, limit: number, beforeSeq: Option.Option<number>): Effect.Effect<ReadonlyArray<SignerWithGrants>, Unavailable>
  /**
   * Locks one grant of the owner's signer, lets `decide` choose its next state
   * from what it reads, and records the digest, all in one transaction: the
   * loser of a race reads the winner's result.
   */
  transition<E>(input: TransitionInput<E>): Effect.Effect<TransitionResult<E>, Unavailable>
  /**
   * Which of the owner's grants and which change a digest was already recorded
   * for, if any; another owner's digests stay invisible.
   */
  findTransition(owner: SuiAddress, digest: string): Effect.Effect<Option.Option<{ grantId: string; action: string }>, Unavailable>
  /**
   * Moves grants between states without a digest (prepare steps), in one
   * transaction, each only from the exact state it was read in; `false`, with
   * nothing changed, when any grant had moved meanwhile.
   */
  setStatuses(input: {
    owner: SuiAddress
    signerId: string
    changes: ReadonlyArray<{ grantId: string; from: GrantStatus; to: GrantStatus }>
    now: Date
  }): Effect.Effect<boolean, Unavailable>
}>()("@gateway/server/SignerRepo") {
  static readonly layer = Layer.effect(
    SignerRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const decodeSigner = Schema.decodeUnknownSync(SignerRow)
      const decodeGrant = Schema.decodeUnknownSync(GrantRow)

      const grantsOf = (signerIds: ReadonlyArray<string>) =>
        signerIds.length === 0
          ? Effect.succeed([])
          : sql`SELECT * FROM grants WHERE signer_id IN ${sql.in(signerIds)} ORDER BY signer_id, position`.pipe(
            Effect.map((rows) => rows.map((row) => decodeGrant(row)))
          )

      const withGrants = (rows: ReadonlyArray<unknown>) =>
        Effect.gen(function*() {
          const signers = rows.map((row) => decodeSigner(row))
          const grants = yield* grantsOf(signers.map((s) => s.id))
          return signers.map((signer) => ({ signer, grants: grants.filter((g) => g.signer_id === signer.id) }))
        })

      const signerColumns = sql`id, seq, owner_address, agent_address, name, profile_ids, policy_ids,
        on_chain_policy_ids, policy_rules, created_at, updated_at`

      return SignerRepo.of({
        findByIdempotencyKey: (owner, key) =>
          sql<{ request_hash: string; create_response: string }>`SELECT request_hash, create_response
              FROM delegated_signers WHERE owner_address = ${owner} AND idempotency_key = ${key}`.pipe(
            Effect.map((rows) =>
              Option.map(Option.fromNullishOr(rows[0]), (r) => ({ requestHash: r.request_hash, createResponse: r.create_response }))
            ),
            storeUnavailable
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
            Effect.catchIf(uniqueViolation, () => Effect.succeed(false)),
            storeUnavailable
          ),

        get: (owner, id) =>
          sql`SELECT ${signerColumns} FROM delegated_signers WHERE id = ${id} AND owner_address = ${owner}`.pipe(
            Effect.flatMap(withGrants),
            Effect.map((rows) => Option.fromNullishOr(rows[0])),
            storeUnavailable
          ),

        list: (owner, limit, beforeSeq) =>
          Option.match(beforeSeq, {
            onNone: () =>
              sql`SELECT ${signerColumns} FROM delegated_signers WHERE owner_address = ${owner}
                  ORDER BY seq DESC LIMIT ${limit}`,
            onSome: (seq) =>
              sql`SELECT ${signerColumns} FROM delegated_signers WHERE owner_address = ${owner} AND seq < ${seq}
                  ORDER BY seq DESC LIMIT ${limit}`
          }).pipe(Effect.flatMap(withGrants), storeUnavailable),

        transition: <E>(input: TransitionInput<E>) =>
          sql.withTransaction(
            Effect.gen(function*() {
              const rows = yield* sql`SELECT g.* FROM grants g JOIN delegated_signers s ON s.id = g.signer_id
                  WHERE g.id = ${input.grantId} AND g.signer_id = ${input.signerId} AND s.owner_address = ${input.owner}
                  FOR UPDATE OF g`
              const row = rows[0]
              const result = (r: TransitionResult<E>) => r
              if (row === undefined) return result({ _tag: "NotFound" })
              const grant = decodeGrant(row)
              const recorded = yield* sql<{ grant_id: string; action: string }>`SELECT grant_id, action
                  FROM grant_transitions WHERE digest = ${input.digest}`
              const mine = recorded.find((r) => r.grant_id === input.grantId)
              const decision = input.decide({
                grant,
                recordedAction: Option.map(Option.fromNullishOr(mine), (r) => r.action),
                digestUsedElsewhere: recorded.some((r) => r.grant_id !== input.grantId)
              })
              if (decision._tag === "Refuse") return result({ _tag: "Refused", error: decision.error })
              if (decision._tag === "Keep") return result({ _tag: "Kept", grant })
              const at = input.now.toISOString()
              yield* sql`INSERT INTO grant_transitions (digest, grant_id, action, created_at)
                  VALUES (${input.digest}, ${input.grantId}, ${input.action}, ${at})`
              const updated = yield* sql`UPDATE grants SET status = ${decision.status},
                  grant_object_id = COALESCE(${decision.grantObjectId ?? null}, grant_object_id), updated_at = ${at}
                  WHERE id = ${input.grantId} RETURNING *`
              yield* sql`UPDATE delegated_signers SET updated_at = ${at} WHERE id = ${input.signerId}`
              return result({ _tag: "Applied", grant: decodeGrant(updated[0]) })
            })
          ).pipe(
            // The row lock covers one grant only: a concurrent finalize of another grant with this digest
            // commits first and this insert hits the key. The failure has rolled the transaction back; the
            // caller answers CONFLICT, not UNAVAILABLE.
            Effect.catchIf(uniqueViolation, () => Effect.succeed<TransitionResult<E>>({ _tag: "DigestTaken" })),
            storeUnavailable
          ),

        findTransition: (owner, digest) =>
          sql<{ grant_id: string; action: string }>`SELECT t.grant_id, t.action FROM grant_transitions t
              JOIN grants g ON g.id = t.grant_id JOIN delegated_signers s ON s.id = g.signer_id
              WHERE t.digest = ${digest} AND s.owner_address = ${owner}`.pipe(
            Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), (r) => ({ grantId: r.grant_id, action: r.action }))),
            storeUnavailable
          ),

        setStatuses: (input) =>
          sql.withTransaction(
            Effect.gen(function*() {
              const at = input.now.toISOString()
              for (const change of input.changes) {
                const moved = yield* sql`UPDATE grants SET status = ${change.to}, updated_at = ${at}
                    WHERE id = ${change.grantId} AND signer_id = ${input.signerId} AND status = ${change.from} RETURNING id`
                if (moved.length === 0) return yield* new GrantMoved()
              }
              yield* sql`UPDATE delegated_signers SET updated_at = ${at}
                  WHERE id = ${input.signerId} AND owner_address = ${input.owner}`
              return true
            })
          ).pipe(
            Effect.catchTag("GrantMoved", () => Effect.succeed(false)),
            storeUnavailable
          )
      })
    })
  )
}
