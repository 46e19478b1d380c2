import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { PolicyId, ProfileId } from "@gateway/domain/Ids"
import { Policy, PolicyRule, Profile } from "@gateway/domain/Policy"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { storeUnavailable } from "../storage/StoreErrors.ts"

const PolicyRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  /** BIGINT identity, as the driver returns it. */
  on_chain_policy_id: Schema.Unknown,
  rule: Schema.Unknown,
  created_at: Schema.Unknown
})

const toPolicy = (row: typeof PolicyRow.Type): Policy =>
  Schema.decodeUnknownSync(Policy)({
    id: row.id,
    name: row.name,
    onChainPolicyId: Number(row.on_chain_policy_id),
    rule: Schema.decodeUnknownSync(PolicyRule)(typeof row.rule === "string" ? JSON.parse(row.rule) : row.rule),
    createdAt: new Date(String(row.created_at)).toISOString()
  })

const toProfile = (row: { id: string; name: string; policy_ids: unknown; created_at: unknown }): Profile =>
  Schema.decodeUnknownSync(Profile)({
    id: row.id,
    name: row.name,
    policyIds: typeof row.policy_ids === "string" ? JSON.parse(row.policy_ids) : row.policy_ids,
    createdAt: new Date(String(row.created_at)).toISOString()
  })

/** SQL for owner-scoped policy rows and profiles; every query is confined to one owner. */
export class PolicyRepo extends Context.Service<PolicyRepo, {
  insertPolicy(p: { id: string; owner: SuiAddress; name: string; rule: PolicyRule; createdAt: Date }): Effect.Effect<Policy, Unavailable>
  listPolicies(owner: SuiAddress): Effect.Effect<ReadonlyArray<Policy>, Unavailable>
  findPolicies(owner: SuiAddress, ids: ReadonlyArray<PolicyId>): Effect.Effect<ReadonlyArray<Policy>, Unavailable>
  insertProfile(p: { id: string; owner: SuiAddress; name: string; policyIds: ReadonlyArray<PolicyId>; createdAt: Date }): Effect.Effect<Profile, Unavailable>
  listProfiles(owner: SuiAddress): Effect.Effect<ReadonlyArray<Profile>, Unavailable>
  findProfiles(owner: SuiAddress, ids: ReadonlyArray<ProfileId>): Effect.Effect<ReadonlyArray<Profile>, Unavailable>
}>()("@gateway/server/PolicyRepo") {
  static readonly layer = Layer.effect(
    PolicyRepo,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const policies = (rows: ReadonlyArray<unknown>) => rows.map((row) => toPolicy(Schema.decodeUnknownSync(PolicyRow)(row)))
      return PolicyRepo.of({
        insertPolicy: (p) =>
          sql`INSERT INTO policies (id, owner_address, name, rule, created_at)
              VALUES (${p.id}, ${p.owner}, ${p.name}, ${JSON.stringify(p.rule)}::jsonb, ${p.createdAt.toISOString()})
              RETURNING id, name, on_chain_policy_id, rule, created_at`.pipe(
            Effect.map((rows) => policies(rows)),
            Effect.flatMap((rows) => Effect.fromNullishOr(rows[0]).pipe(Effect.orDie)),
            storeUnavailable
          ),
        listPolicies: (owner) =>
          sql`SELECT id, name, on_chain_policy_id, rule, created_at FROM policies
              WHERE owner_address = ${owner} ORDER BY created_at, id`.pipe(Effect.map(policies), storeUnavailable),
        findPolicies: (owner, ids) =>
          ids.length === 0
            ? Effect.succeed([])
            : sql`SELECT id, name, on_chain_policy_id, rule, created_at FROM policies
                WHERE owner_address = ${owner} AND id IN ${sql.in(ids)}`.pipe(Effect.map(policies), storeUnavailable),
        insertProfile: (p) =>
          sql<{ id: string; name: string; policy_ids: unknown; created_at: unknown }>`
              INSERT INTO profiles (id, owner_address, name, policy_ids, created_at)
              VALUES (${p.id}, ${p.owner}, ${p.name}, ${JSON.stringify(p.policyIds)}::jsonb, ${p.createdAt.toISOString()})
              RETURNING id, name, policy_ids, created_at`.pipe(
            Effect.flatMap((rows) => Effect.fromNullishOr(rows[0]).pipe(Effect.orDie)),
            Effect.map(toProfile),
            storeUnavailable
          ),
        listProfiles: (owner) =>
          sql<{ id: string; name: string; policy_ids: unknown; created_at: unknown }>`
              SELECT id, name, policy_ids, created_at FROM profiles
              WHERE owner_address = ${owner} ORDER BY created_at, id`.pipe(
            Effect.map((rows) => rows.map(toProfile)),
            storeUnavailable
          ),
        findProfiles: (owner, ids) =>
          ids.length === 0
            ? Effect.succeed([])
            : sql<{ id: string; name: string; policy_ids: unknown; created_at: unknown }>`
                SELECT id, name, policy_ids, created_at FROM profiles
                WHERE owner_address = ${owner} AND id IN ${sql.in(ids)}`.pipe(
              Effect.map((rows) => rows.map(toProfile)),
              storeUnavailable
            )
      })
    })
  )
}
