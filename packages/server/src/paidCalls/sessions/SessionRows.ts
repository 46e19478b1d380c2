import { Schema } from "effect"
import type { PaymentSession, SessionGrantView } from "@gateway/domain/payment/PaymentSession"
import { BigIntColumn, Timestamp } from "../../storage/Codecs.ts"

/** A session as stored, with its grant as the gateway sees it now. */
export interface SessionRecord {
  readonly session: PaymentSession
  readonly grant: SessionGrantView
  readonly owner: string
  readonly delegate: string
  readonly voucherKey: Uint8Array
  readonly initialSharedVersion: bigint
  /** The charged voucher's signature: what a claim presents; null before the first answered call. */
  readonly chargedSignature: Uint8Array | null
  /** The delegate's final voucher, once it asked to close: what `claim_and_close` presents. */
  readonly final: { readonly cumulative: bigint; readonly signature: Uint8Array } | null
  readonly calls: bigint
  /** A voucher's forward is under way (until its deadline). */
  readonly pending: bigint | null
  readonly pendingUntilMs: bigint | null
  readonly claimRequested: boolean
  readonly returned: bigint | null
  readonly closeDigest: string | null
  readonly openedAt: Date
}

/** What the chain said of a session when the gateway first met it (and at a top-up). */
export interface LearnedSession {
  readonly sessionId: string
  readonly grantObjectId: string
  readonly initialSharedVersion: bigint
  readonly owner: string
  readonly delegate: string
  readonly payee: string
  readonly coinType: string
  readonly voucherKey: Uint8Array
  readonly deposit: bigint
  readonly expiryMs: bigint
  readonly closeAtMs: bigint
  readonly claimed: bigint
}

/** NUMERIC(20, 0) amounts are selected as text and kept whole. */
const Numeric = BigIntColumn

export const Row = Schema.Struct({
  sessionId: Schema.String,
  grantObjectId: Schema.String,
  initialSharedVersion: Schema.String,
  owner: Schema.String,
  delegate: Schema.String,
  payee: Schema.String,
  coinType: Schema.String,
  voucherKey: Schema.Uint8Array,
  deposit: Numeric,
  expiryMs: BigIntColumn,
  closeAtMs: BigIntColumn,
  charged: Numeric,
  chargedSignature: Schema.NullOr(Schema.Uint8Array),
  calls: BigIntColumn,
  pending: Schema.NullOr(Numeric),
  pendingUntilMs: Schema.NullOr(BigIntColumn),
  claimed: Numeric,
  claimRequested: Schema.Boolean,
  grantHalt: Schema.NullOr(Schema.Literals(["paused", "revoked"])),
  state: Schema.Literals(["open", "closing", "closed"]),
  finalCumulative: Schema.NullOr(Numeric),
  finalSignature: Schema.NullOr(Schema.Uint8Array),
  returned: Schema.NullOr(Numeric),
  closeDigest: Schema.NullOr(Schema.String),
  openedAt: Timestamp,
  grantStatus: Schema.String,
  maxPerPayment: Schema.String
})

export const recordOf = (r: typeof Row.Type): SessionRecord => ({
  session: {
    sessionId: r.sessionId,
    grantObjectId: r.grantObjectId,
    payee: r.payee,
    coinType: r.coinType,
    deposit: r.deposit,
    expiryMs: r.expiryMs,
    closeAtMs: r.closeAtMs,
    charged: r.charged,
    claimed: r.claimed,
    state: r.state
  },
  grant: {
    paused: r.grantHalt === "paused" || r.grantStatus === "paused",
    revoked: r.grantHalt === "revoked" || r.grantStatus === "revoked",
    maxPerPayment: BigInt(r.maxPerPayment)
  },
  owner: r.owner,
  delegate: r.delegate,
  voucherKey: new Uint8Array(r.voucherKey),
  initialSharedVersion: BigInt(r.initialSharedVersion),
  chargedSignature: r.chargedSignature === null ? null : new Uint8Array(r.chargedSignature),
  final: r.finalCumulative === null || r.finalSignature === null
    ? null
    : { cumulative: r.finalCumulative, signature: new Uint8Array(r.finalSignature) },
  calls: r.calls,
  pending: r.pending,
  pendingUntilMs: r.pendingUntilMs,
  claimRequested: r.claimRequested,
  returned: r.returned,
  closeDigest: r.closeDigest,
  openedAt: r.openedAt
})

/** The session's columns and its grant's, for `FROM payment_sessions s JOIN grants g`. */
export const COLUMNS = "s.session_id, s.grant_object_id, s.initial_shared_version, s.owner, s.delegate, s.payee, s.coin_type, " +
  "s.voucher_key, s.deposit::text AS deposit, s.expiry_ms, s.close_at_ms, s.charged::text AS charged, s.charged_signature, s.calls, " +
  "s.pending::text AS pending, s.pending_until_ms, s.claimed::text AS claimed, s.claim_requested, s.grant_halt, s.state, " +
  "s.final_cumulative::text AS final_cumulative, s.final_signature, s.returned::text AS returned, s.close_digest, s.opened_at, g.status AS grant_status, g.max_per_payment"
