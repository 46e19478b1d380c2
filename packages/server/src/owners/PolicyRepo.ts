import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import type { PolicyId, ProfileId } from "@gateway/domain/Ids"
import { Policy, PolicyRule, Profile } from "@gateway/domain/Policy"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { Count, JsonColumn, storeDecoded, Timestamp } from "../storage/Codecs.ts"

/** A policy row as the (camelCasing) client hands it over. */
const PolicyRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  onChainPolicyId: Count,
  rule: JsonColumn(PolicyRule),
  createdAt: Timestamp
})

const ProfileRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  policyIds: JsonColumn(Schema.Array(Schema.String)),
  createdAt: Timestamp
})

const toPolicy = (row: typeof PolicyRow.Type): Policy =>
  Schema.decodeUnknownSync(Policy)({ ...row, createdAt: row.createdAt.toISOString() })

const toProfile = (row: typeof ProfileRow.Type): Profile =>
  Schema.decodeUnknownSync(Profile)({ ...row, createdAt: row.createdAt.toISOString() })

const OwnerIds = Schema.Struct({ owner: Schema.String, ids: Schema.Array(Schema.String) })

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
      const policyColumns = sql`id, name, on_chain_policy_id, rule, created_at`
      const profileColumns = sql`id, name, policy_ids, created_at`
      const insertPolicy = SqlSchema.findOne({
        Request: Schema.Struct({ id: Schema.String, owner: Schema.String, name: Schema.String, rule: PolicyRule, createdAt: Schema.Date }),
        Result: PolicyRow,
        execute: (p) =>
          sql`INSERT INTO policies (id, owner_address, name, rule, created_at)
              VALUES (${p.id}, ${p.owner}, ${p.name}, ${JSON.stringify(p.rule)}::jsonb, ${p.createdAt.toISOString()})
              RETURNING ${policyColumns}`
      })
      const listPolicies = SqlSchema.findAll({
        Request: Schema.String,
        Result: PolicyRow,
        execute: (owner) => sql`SELECT ${policyColumns} FROM policies WHERE owner_address = ${owner} ORDER BY created_at, id`
      })
      const findPolicies = SqlSchema.findAll({
        Request: OwnerIds,
        Result: PolicyRow,
        execute: ({ owner, ids }) => sql`SELECT ${policyColumns} FROM policies WHERE owner_address = ${owner} AND id IN ${sql.in(ids)}`
      })
      const insertProfile = SqlSchema.findOne({
        Request: Schema.Struct({
          id: Schema.String,
          owner: Schema.String,
          name: Schema.String,
          policyIds: Schema.Array(Schema.String),
          createdAt: Schema.Date
        }),
        Result: ProfileRow,
        execute: (p) =>
          sql`INSERT INTO profiles (id, owner_address, name, policy_ids, created_at)
              VALUES (${p.id}, ${p.owner}, ${p.name}, ${JSON.stringify(p.policyIds)}::jsonb, ${p.createdAt.toISOString()})
              RETURNING ${profileColumns}`
      })
      const listProfiles = SqlSchema.findAll({
        Request: Schema.String,
        Result: ProfileRow,
        execute: (owner) => sql`SELECT ${profileColumns} FROM profiles WHERE owner_address = ${owner} ORDER BY created_at, id`
      })
      const findProfiles = SqlSchema.findAll({
        Request: OwnerIds,
        Result: ProfileRow,
        execute: ({ owner, ids }) => sql`SELECT ${profileColumns} FROM profiles WHERE owner_address = ${owner} AND id IN ${sql.in(ids)}`
      })
      return PolicyRepo.of({
        insertPolicy: (p) =>
          insertPolicy(p).pipe(Effect.map(toPolicy), storeDecoded, Effect.withSpan("PolicyRepo.insertPolicy")),
        listPolicies: (owner) =>
          listPolicies(owner).pipe(Effect.map((rows) => rows.map(toPolicy)), storeDecoded, Effect.withSpan("PolicyRepo.listPolicies")),
        findPolicies: (owner, ids) =>
          (ids.length === 0 ? Effect.succeed([]) : findPolicies({ owner, ids }).pipe(Effect.map((rows) => rows.map(toPolicy)), storeDecoded)).pipe(
            Effect.withSpan("PolicyRepo.findPolicies")
          ),
        insertProfile: (p) =>
          insertProfile(p).pipe(Effect.map(toProfile), storeDecoded, Effect.withSpan("PolicyRepo.insertProfile")),
        listProfiles: (owner) =>
          listProfiles(owner).pipe(Effect.map((rows) => rows.map(toProfile)), storeDecoded, Effect.withSpan("PolicyRepo.listProfiles")),
        findProfiles: (owner, ids) =>
          (ids.length === 0 ? Effect.succeed([]) : findProfiles({ owner, ids }).pipe(Effect.map((rows) => rows.map(toProfile)), storeDecoded)).pipe(
            Effect.withSpan("PolicyRepo.findProfiles")
          )
      })
    })
  )
}
