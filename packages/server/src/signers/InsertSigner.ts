import { Effect, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import type { CreatedDelegatedSigner } from "@gateway/domain/DelegatedSigner"
import type { StoredWindow } from "@gateway/domain/SpendingWindow"
import type { Unavailable } from "@gateway/domain/Errors"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { onUniqueViolation, storeUnavailable } from "../storage/Codecs.ts"
import { CreateResponseColumn } from "./SignerColumns.ts"

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
  readonly createResponse: CreatedDelegatedSigner
  readonly grants: ReadonlyArray<{
    readonly id: string
    readonly coinType: string
    readonly poolId: string
    readonly sessionCap: string
    readonly maxPerPayment: string
    readonly expiryMs: string
    readonly window: StoredWindow
    readonly recipients: ReadonlyArray<string>
    readonly kind: number
  }>
  readonly now: Date
}

const encodeCreateResponse = Schema.encodeSync(CreateResponseColumn)

export const insertSigner = (sql: SqlClient.SqlClient) => (s: NewSigner): Effect.Effect<boolean, Unavailable> =>
  sql.withTransaction(
    Effect.gen(function*() {
      const at = s.now.toISOString()
      const createResponse = encodeCreateResponse(s.createResponse)
      yield* sql`INSERT INTO delegated_signers (id, owner_address, agent_address, name, profile_ids, policy_ids,
          on_chain_policy_ids, policy_rules, idempotency_key, request_hash, create_response, created_at, updated_at)
        VALUES (${s.id}, ${s.owner}, ${s.agentAddress}, ${s.name}, ${JSON.stringify(s.profileIds)}::jsonb,
          ${JSON.stringify(s.policyIds)}::jsonb, ${JSON.stringify(s.onChainPolicyIds)}::jsonb,
          ${JSON.stringify(s.policyRules)}::jsonb, ${s.idempotencyKey}, ${s.requestHash}, ${createResponse}, ${at}, ${at})`
      for (const [position, g] of s.grants.entries()) {
        yield* sql`INSERT INTO grants (id, signer_id, position, coin_type, pool_id, session_cap, max_per_payment,
            expiry_ms, window_kind, window_period_ms, window_limit, recipients, kind, status, created_at, updated_at)
          VALUES (${g.id}, ${s.id}, ${position}, ${g.coinType}, ${g.poolId}, ${g.sessionCap}, ${g.maxPerPayment},
            ${g.expiryMs}, ${g.window.kind}, ${g.window.periodMs}, ${g.window.limit}, ${JSON.stringify(g.recipients)}::jsonb,
            ${g.kind}, 'pending', ${at}, ${at})`
      }
      return true
    })
  ).pipe(
    onUniqueViolation(() => false),
    storeUnavailable,
    Effect.withSpan("SignerRepo.insert", { attributes: { "signer.id": s.id } })
  )
