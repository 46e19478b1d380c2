import { Context, Effect, Layer, type Option } from "effect"
import { SqlClient } from "effect/sql"
import type { Unavailable } from "@gateway/domain/Errors"
import { listSessions, type SessionListing } from "./SessionReads.ts"
import type { LearnedSession, SessionRecord } from "./SessionRows.ts"
import {
  beginClose,
  type ClosedOnChain,
  dueForClaim,
  dueForClose,
  liveGrants,
  markClaimed,
  markClosed,
  requestClaims,
  setGrantHalt
} from "./SessionSettlementWrites.ts"
import { admitVoucher, chargeVoucher, findSession, learnSession, raiseDeposit, releaseVoucher, type VoucherAdmission } from "./SessionWrites.ts"

export type { LearnedSession, SessionRecord } from "./SessionRows.ts"

/** A claim round's lead: sessions expiring within this long are claimed whatever their unclaimed amount. */
const CLAIM_LEAD_MS = 600_000

/** SQL for payment sessions (migration 0017). */
export class PaymentSessionRepo extends Context.Service<PaymentSessionRepo, {
  find(sessionId: string): Effect.Effect<Option.Option<SessionRecord>, Unavailable>
  learn(session: LearnedSession): Effect.Effect<void, Unavailable>
  raiseDeposit(sessionId: string, deposit: bigint): Effect.Effect<void, Unavailable>
  admit(input: VoucherAdmission): Effect.Effect<boolean, Unavailable>
  charge(sessionId: string, cumulative: bigint): Effect.Effect<void, Unavailable>
  release(sessionId: string, cumulative: bigint): Effect.Effect<void, Unavailable>
  dueForClaim(nowMs: number): Effect.Effect<ReadonlyArray<SessionRecord>, Unavailable>
  dueForClose(nowMs: number): Effect.Effect<ReadonlyArray<SessionRecord>, Unavailable>
  markClaimed(sessionId: string, cumulative: bigint): Effect.Effect<void, Unavailable>
  markClosed(sessionId: string, closed: ClosedOnChain): Effect.Effect<void, Unavailable>
  beginClose(input: { readonly sessionId: string; readonly cumulative: bigint; readonly signature: Uint8Array; readonly nowMs: number }): Effect.Effect<
    boolean,
    Unavailable
  >
  requestClaims(payee: string): Effect.Effect<number, Unavailable>
  readonly liveGrants: Effect.Effect<ReadonlyArray<string>, Unavailable>
  setGrantHalt(grantObjectId: string, halt: "paused" | "revoked" | null): Effect.Effect<void, Unavailable>
  list(filter: { readonly payee: string } | { readonly grantObjectIds: ReadonlyArray<string> }): Effect.Effect<ReadonlyArray<SessionListing>, Unavailable>
}>()("@gateway/server/PaymentSessionRepo") {
  static readonly layer = Layer.effect(
    PaymentSessionRepo,
    Effect.map(SqlClient.SqlClient, (sql) =>
      PaymentSessionRepo.of({
        find: findSession(sql),
        learn: learnSession(sql),
        raiseDeposit: raiseDeposit(sql),
        admit: admitVoucher(sql),
        charge: chargeVoucher(sql),
        release: releaseVoucher(sql),
        dueForClaim: dueForClaim(sql, CLAIM_LEAD_MS),
        dueForClose: dueForClose(sql),
        markClaimed: markClaimed(sql),
        markClosed: markClosed(sql),
        beginClose: beginClose(sql),
        requestClaims: requestClaims(sql),
        liveGrants: liveGrants(sql),
        setGrantHalt: setGrantHalt(sql),
        list: listSessions(sql)
      }))
  )
}
