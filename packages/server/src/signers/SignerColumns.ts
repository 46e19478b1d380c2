import { Schema } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import { CreatedDelegatedSigner, DelegatedSigner } from "@gateway/domain/DelegatedSigner"
import { Grant } from "@gateway/domain/Grant"
import { JsonColumn } from "../storage/Codecs.ts"

/** The aggregate as the store hands it over: one JSON document, numbers too large for JSON as decimal strings. */
const StoredGrant = Schema.Struct({ ...Grant.fields, expiryMs: Schema.BigIntFromString })
const StoredSigner = Schema.Struct({ ...DelegatedSigner.fields, seq: Schema.BigIntFromString, grants: Schema.Array(StoredGrant) })
const StoredRecord = Schema.NullOr(Schema.Struct({ grantId: Schema.String, action: Schema.String }))

export const SignerColumn = JsonColumn(StoredSigner)
export const RecordColumn = JsonColumn(StoredRecord)

export const SignerRow = Schema.Struct({ signer: SignerColumn })
export const RecordRow = Schema.Struct({ recorded: RecordColumn })

/** A create's response, stored as the JSON first answered so a replay answers the same kinds. */
export const CreateResponseColumn = Schema.fromJsonString(CreatedDelegatedSigner)

/** The signer `s` with its grants, read from `grants` or from the rows a statement locked. */
export const signerJsonOver = (sql: SqlClient.SqlClient, grants: Statement.Fragment) => {
  const epochMs = (column: string) => sql.literal(`floor(extract(epoch FROM ${column}) * 1000)`)
  const grantJson = sql`json_build_object('id', g.id, 'coinType', g.coin_type, 'poolId', g.pool_id,
    'sessionCap', g.session_cap, 'maxPerPayment', g.max_per_payment, 'expiryMs', g.expiry_ms, 'kind', g.kind,
    'window', json_build_object('kind', g.window_kind, 'periodMs', g.window_period_ms, 'limit', g.window_limit),
    'recipients', g.recipients,
    'status', g.status, 'grantObjectId', g.grant_object_id, 'createdAtMs', ${epochMs("g.created_at")})`
  const signerFields = sql`'id', s.id, 'seq', s.seq::text, 'owner', s.owner_address, 'agentAddress', s.agent_address,
    'name', s.name, 'profileIds', s.profile_ids, 'policyIds', s.policy_ids, 'onChainPolicyIds', s.on_chain_policy_ids,
    'policyRules', s.policy_rules, 'createdAtMs', ${epochMs("s.created_at")}, 'updatedAtMs', ${epochMs("s.updated_at")}`
  return sql`json_build_object(${signerFields}, 'grants', COALESCE((SELECT json_agg(${grantJson} ORDER BY g.position)
    FROM ${grants} g WHERE g.signer_id = s.id), '[]'::json))`
}

/** The signer `s` with its grants as stored. */
export const signerJson = (sql: SqlClient.SqlClient) => signerJsonOver(sql, sql`grants`)
