import { WindowKind } from "@gateway/domain/chain/GrantWindow"
import { SESSION_GRACE_MS, SESSION_MAX_LIFETIME_MS } from "@gateway/domain/chain/SessionVoucher"
import type { AbortName, EventName } from "@gateway/domain/chain/SpendAccountModule"
import { ADMIN, addr, DELEGATE, OPERATOR, OWNER, RECIPIENT, STRANGER, type VoucherSigner } from "./World.ts"

/**
 * The one table of module vectors: a state built by earlier calls, one call,
 * and what it must do. `Vectors.test.ts` runs every row against `execute()`;
 * the `#[test]` of each row in `packages/chain/move/tests/spend_account_tests.move`
 * is generated from it (`MoveVectorTests.ts`), every field of every step an
 * argument there, so the executor and the Move module cannot drift where the
 * Sui CLI is absent. After adding or changing a row, run `npm run move-vectors`:
 * `Vectors.test.ts` fails while the Move file's generated block is stale.
 */

/** A generic coin type: its `type_name` carries the type argument's address too. */
export const WRAPPED_COIN = `0x${"7".repeat(64)}::wrapper::Wrapper<0x${"8".repeat(64)}::x::Y>`
/** A coin that is not SUI, for balances near u64's maximum. */
export const BIG_COIN = `0x${"9".repeat(64)}::big::BIG`
export const U64_MAX = 2n ** 64n - 1n

/** The default grant: limits, and a deadline the Clock (at 1_000 ms) has not passed. */
export const GRANT = { grantId: "g_0001", deadlineMs: 5_000n, sessionCap: 500n, maxPerPayment: 200n, expiryMs: 10_000n } as const

/** A create's window arguments as the module takes them; none by default. */
export interface WindowArgs {
  readonly kind: number
  readonly periodMs: bigint
  readonly limit: bigint
}
export const NO_WINDOW_ARGS: WindowArgs = { kind: WindowKind.none, periodMs: 0n, limit: 0n }

/** 1970-02-01T00:00:00Z: the first calendar-month boundary after the World's Clock. */
export const FEBRUARY_1970_MS = 2_678_400_000n

export type Step =
  | { readonly op: "createPool"; readonly sender?: string; readonly amount: bigint; readonly coinType?: string }
  | { readonly op: "deposit"; readonly sender?: string; readonly amount: bigint }
  | { readonly op: "withdraw"; readonly sender?: string; readonly amount: bigint }
  | {
    readonly op: "createGrant"
    readonly sender?: string
    readonly grantId?: string
    readonly deadlineMs?: bigint
    readonly sessionCap?: bigint
    readonly maxPerPayment?: bigint
    readonly expiryMs?: bigint
    readonly window?: WindowArgs
    readonly recipients?: ReadonlyArray<string>
  }
  | { readonly op: "pay"; readonly sender?: string; readonly amount: bigint; readonly recipient?: string }
  | { readonly op: "pause" | "resume" | "revoke"; readonly sender?: string; readonly kind?: number }
  | { readonly op: "migratePool" | "migrateGrant" | "setVersion"; readonly sender?: string }
  | { readonly op: "forgetNonce"; readonly sender?: string; readonly grantId?: string }
  /**
   * A session on the latest grant, for `payee` (RECIPIENT), closable early by `operator` (OPERATOR) too, signed for
   * with the World's voucher key (or a key too short).
   */
  | {
    readonly op: "openSession"
    readonly sender?: string
    readonly payee?: string
    readonly operator?: string
    readonly deposit: bigint
    readonly expiryMs?: bigint
    readonly voucherKey?: "short"
  }
  | { readonly op: "topUp"; readonly sender?: string; readonly amount: bigint }
  /** Claims on the latest session, with a voucher for `cumulative` unless `voucher` says otherwise. */
  | { readonly op: "claim" | "claimAndClose"; readonly sender?: string; readonly cumulative: bigint; readonly voucher?: VoucherArgs }
  | { readonly op: "closeSession" | "requestClose" | "migrateSession"; readonly sender?: string }
  /** State edits, not transactions: an object or the Registry as another package version left it; the Clock moving. */
  | { readonly op: "poolVersion" | "grantVersion" | "registryVersion" | "sessionVersion"; readonly version: bigint }
  | { readonly op: "clock"; readonly ms: bigint }

/**
 * How a claim's signature is made: by the session's key (the default) or another, over `amount` (the claim's
 * cumulative by default) and `sessionId` (the session's by default), as a final voucher or not (by default: final
 * for `claimAndClose` only).
 */
export interface VoucherArgs {
  readonly signer?: VoucherSigner
  readonly amount?: bigint
  readonly sessionId?: string
  readonly final?: boolean
}

/** A session's defaults: before the default grant's expiry, and more than its per-payment cap (which a deposit is not held to). */
export const SESSION = { deposit: 300n, expiryMs: 9_000n } as const
/** The claim deadline of a session that expires at `SESSION.expiryMs`. */
export const SESSION_DEADLINE_MS = SESSION.expiryMs + SESSION_GRACE_MS

export type Outcome =
  /** Success, emitting this event (or none), or these events in this order. */
  | { readonly ok: EventName | null | ReadonlyArray<EventName> }
  /** A Move abort in spend_account, in `fn` when not the called function (set_paused). */
  | { readonly abort: AbortName; readonly in?: string }
  /** An abort inside a framework module (`module::function`). */
  | { readonly frameworkAbort: string }
  /** Move's arithmetic error inside a framework function. */
  | { readonly arithmeticError: string }

export interface Vector {
  readonly name: string
  readonly given: ReadonlyArray<Step>
  readonly when: Step
  readonly then: Outcome
}

const pool: Step = { op: "createPool", amount: 1_000n }
const grant: Step = { op: "createGrant" }
const funded: ReadonlyArray<Step> = [pool, grant]
/** A grant of at most 300 per minute-long window (besides its 500 in all), with no expiry. */
const windowedGrant: Step = { op: "createGrant", expiryMs: 0n, window: { kind: WindowKind.period, periodMs: 60_000n, limit: 300n } }
const windowed: ReadonlyArray<Step> = [pool, windowedGrant]
/** A grant of at most 300 per UTC calendar month, with no expiry. */
const monthlyGrant: Step = { op: "createGrant", expiryMs: 0n, window: { kind: WindowKind.calendarMonth, periodMs: 0n, limit: 300n } }
const monthly: ReadonlyArray<Step> = [pool, monthlyGrant]
/** A grant that may pay RECIPIENT and one other address only. */
const listed: ReadonlyArray<Step> = [pool, { op: "createGrant", recipients: [RECIPIENT, addr(0xb0b)] }]
/** The Registry as a newer package version left it after its `set_version`: this (older) code is switched off. */
const newerPackage: Step = { op: "registryVersion", version: 2n }
/** The Registry as an older package version left it: this (newer) code is not switched on yet. */
const olderRegistry: Step = { op: "registryVersion", version: 0n }

const open: Step = { op: "openSession", deposit: SESSION.deposit }
const opened: ReadonlyArray<Step> = [...funded, open]
/** A grant of at most 300 a minute and no expiry, with a session of 200 that outlives several windows. */
const windowedOpen: ReadonlyArray<Step> = [...windowed, { op: "openSession", deposit: 200n, expiryMs: 200_000n }]
const noExpiry: ReadonlyArray<Step> = [pool, { op: "createGrant", expiryMs: 0n }]
/** A claim's sender and voucher, when not the defaults. */
interface ClaimArgs {
  readonly sender?: string
  readonly voucher?: VoucherArgs
}
const claim = (cumulative: bigint, more: ClaimArgs = {}): Step => ({ op: "claim", cumulative, ...more })
const claimAndClose = (cumulative: bigint, more: ClaimArgs = {}): Step => ({ op: "claimAndClose", cumulative, ...more })
const closeBy = (sender: string): Step => ({ op: "closeSession", sender })
const paused: ReadonlyArray<Step> = [...opened, { op: "pause" }]
const closeRequested: ReadonlyArray<Step> = [...paused, { op: "requestClose" }]
/** The deadline `request_close` at the World's start (1_000) sets: a grace from then. */
const closeAtMs = 1_000n + SESSION_GRACE_MS
const anotherGrant: Step = { op: "createGrant", grantId: "g_0002" }
/** The session rows: open_session, top_up, claim, close_session, claim_and_close, request_close, migrate_session. */
const sessionVectors: ReadonlyArray<Vector> = [
  { name: "open_session_moves_the_deposit_into_a_shared_session", given: funded, when: open, then: { ok: "SessionOpened" } },
  { name: "open_session_by_the_owner_fails", given: funded, when: { ...open, sender: OWNER }, then: { abort: "ENotDelegate" } },
  {
    name: "open_session_on_another_pool_fails",
    given: [...funded, { op: "createPool", amount: 5n, coinType: WRAPPED_COIN }],
    when: open,
    then: { abort: "EWrongPool" }
  },
  { name: "open_session_with_a_zero_deposit_fails", given: funded, when: { ...open, deposit: 0n }, then: { abort: "EZeroAmount" } },
  { name: "open_session_when_revoked_fails", given: [...funded, { op: "revoke" }], when: open, then: { abort: "ERevoked" } },
  { name: "open_session_when_paused_fails", given: [...funded, { op: "pause" }], when: open, then: { abort: "EPaused" } },
  { name: "open_session_at_the_grant_expiry_fails", given: [...funded, { op: "clock", ms: 10_000n }], when: { ...open, expiryMs: 20_000n }, then: { abort: "EExpired" } },
  { name: "open_session_for_a_payee_not_on_the_list_fails", given: listed, when: { ...open, payee: STRANGER }, then: { abort: "ERecipientNotAllowed" } },
  { name: "open_session_for_a_listed_payee_succeeds", given: listed, when: { ...open, payee: addr(0xb0b) }, then: { ok: "SessionOpened" } },
  {
    name: "open_session_checks_the_payee_before_the_voucher_key",
    given: listed,
    when: { ...open, payee: STRANGER, voucherKey: "short" },
    then: { abort: "ERecipientNotAllowed" }
  },
  { name: "open_session_with_a_voucher_key_not_32_bytes_fails", given: funded, when: { ...open, voucherKey: "short" }, then: { abort: "EInvalidVoucherKey" } },
  { name: "open_session_expiring_now_fails", given: funded, when: { ...open, expiryMs: 1_000n }, then: { abort: "EInvalidSessionExpiry" } },
  { name: "open_session_expiring_after_the_grant_fails", given: funded, when: { ...open, expiryMs: 10_001n }, then: { abort: "EInvalidSessionExpiry" } },
  { name: "open_session_expiring_with_the_grant_succeeds", given: funded, when: { ...open, expiryMs: 10_000n }, then: { ok: "SessionOpened" } },
  { name: "open_session_expiring_in_more_than_seven_days_fails", given: noExpiry, when: { ...open, expiryMs: 1_000n + SESSION_MAX_LIFETIME_MS + 1n }, then: { abort: "EInvalidSessionExpiry" } },
  { name: "open_session_expiring_in_seven_days_succeeds", given: noExpiry, when: { ...open, expiryMs: 1_000n + SESSION_MAX_LIFETIME_MS }, then: { ok: "SessionOpened" } },
  { name: "open_session_checks_the_voucher_key_before_the_expiry", given: funded, when: { ...open, voucherKey: "short", expiryMs: 1_000n }, then: { abort: "EInvalidVoucherKey" } },
  { name: "open_session_above_the_session_cap_fails", given: funded, when: { ...open, deposit: 501n }, then: { abort: "EExceedsSessionCap" } },
  { name: "open_session_above_the_window_limit_fails", given: windowed, when: { ...open, deposit: 301n }, then: { abort: "EExceedsWindowLimit" } },
  { name: "open_session_within_the_window_limit_charges_the_window", given: [...windowed, { op: "pay", amount: 100n }], when: { ...open, deposit: 200n }, then: { ok: "SessionOpened" } },
  { name: "open_session_above_the_pool_balance_fails", given: [...funded, { op: "withdraw", amount: 950n }], when: open, then: { abort: "EInsufficientBalance" } },
  { name: "open_session_on_an_old_version_grant_fails", given: [...funded, { op: "grantVersion", version: 0n }], when: open, then: { abort: "EWrongVersion" } },
  { name: "pay_while_a_session_holds_the_budget_fails", given: [...funded, { ...open, deposit: 400n }], when: { op: "pay", amount: 101n }, then: { abort: "EExceedsSessionCap" } },
  // top_up
  { name: "top_up_adds_to_the_deposit_and_the_spending", given: opened, when: { op: "topUp", amount: 150n }, then: { ok: "SessionToppedUp" } },
  { name: "top_up_by_a_stranger_fails", given: opened, when: { op: "topUp", sender: STRANGER, amount: 1n }, then: { abort: "ENotDelegate" } },
  { name: "top_up_of_zero_fails", given: opened, when: { op: "topUp", amount: 0n }, then: { abort: "EZeroAmount" } },
  { name: "top_up_when_paused_fails", given: paused, when: { op: "topUp", amount: 1n }, then: { abort: "EPaused" } },
  { name: "top_up_at_the_session_expiry_fails", given: [...opened, { op: "clock", ms: SESSION.expiryMs }], when: { op: "topUp", amount: 1n }, then: { abort: "ESessionEnded" } },
  {
    name: "top_up_after_request_close_fails",
    given: [...closeRequested, { op: "resume" }],
    when: { op: "topUp", amount: 1n },
    then: { abort: "ESessionEnded" }
  },
  { name: "top_up_above_the_session_cap_fails", given: opened, when: { op: "topUp", amount: 201n }, then: { abort: "EExceedsSessionCap" } },
  { name: "top_up_above_the_window_limit_fails", given: windowedOpen, when: { op: "topUp", amount: 101n }, then: { abort: "EExceedsWindowLimit" } },
  {
    name: "top_up_in_a_later_window_charges_that_window",
    given: [...windowedOpen, { op: "clock", ms: 61_000n }],
    when: { op: "topUp", amount: 250n },
    then: { ok: "SessionToppedUp" }
  },
  { name: "top_up_on_an_old_version_session_fails", given: [...opened, { op: "sessionVersion", version: 0n }], when: { op: "topUp", amount: 1n }, then: { abort: "EWrongVersion" } },
  { name: "top_up_with_another_grant_fails", given: [...opened, anotherGrant], when: { op: "topUp", amount: 1n }, then: { abort: "EWrongGrant" } },
  // claim
  { name: "claim_by_anyone_pays_the_payee_up_to_the_voucher", given: opened, when: claim(120n, { sender: STRANGER }), then: { ok: "SessionClaimed" } },
  { name: "claim_signed_by_another_key_fails", given: opened, when: claim(120n, { voucher: { signer: "other" } }), then: { abort: "EBadVoucherSignature" } },
  { name: "claim_of_more_than_was_signed_fails", given: opened, when: claim(120n, { voucher: { amount: 100n } }), then: { abort: "EBadVoucherSignature" } },
  {
    name: "claim_with_a_voucher_for_another_session_fails",
    given: opened,
    when: claim(120n, { voucher: { sessionId: addr(0x5e55) } }),
    then: { abort: "EBadVoucherSignature" }
  },
  { name: "claim_with_a_final_voucher_fails", given: opened, when: claim(120n, { voucher: { final: true } }), then: { abort: "EBadVoucherSignature" } },
  { name: "claim_above_the_deposit_fails", given: opened, when: claim(301n), then: { abort: "EExceedsDeposit" } },
  { name: "claim_checks_the_deposit_before_the_signature", given: opened, when: claim(301n, { voucher: { signer: "other" } }), then: { abort: "EExceedsDeposit" } },
  { name: "claim_of_the_whole_deposit_succeeds", given: opened, when: claim(300n), then: { ok: "SessionClaimed" } },
  { name: "claim_of_what_was_claimed_is_a_no_op", given: [...opened, claim(120n)], when: claim(120n), then: { ok: null } },
  { name: "claim_below_what_was_claimed_is_a_no_op", given: [...opened, claim(120n)], when: claim(50n), then: { ok: null } },
  { name: "claim_of_more_pays_the_difference", given: [...opened, claim(120n)], when: claim(200n), then: { ok: "SessionClaimed" } },
  { name: "claim_while_the_grant_is_paused_still_pays", given: paused, when: claim(120n), then: { ok: "SessionClaimed" } },
  { name: "claim_after_the_grant_is_revoked_still_pays", given: [...opened, { op: "revoke" }], when: claim(120n), then: { ok: "SessionClaimed" } },
  { name: "claim_after_the_grant_expired_still_pays", given: [...opened, { op: "clock", ms: 10_000n }], when: claim(120n), then: { ok: "SessionClaimed" } },
  { name: "claim_at_the_claim_deadline_succeeds", given: [...opened, { op: "clock", ms: SESSION_DEADLINE_MS }], when: claim(120n), then: { ok: "SessionClaimed" } },
  { name: "claim_after_the_claim_deadline_fails", given: [...opened, { op: "clock", ms: SESSION_DEADLINE_MS + 1n }], when: claim(120n), then: { abort: "EClaimsOver" } },
  {
    name: "claim_checks_the_deadline_before_the_deposit",
    given: [...opened, { op: "clock", ms: SESSION_DEADLINE_MS + 1n }],
    when: claim(301n),
    then: { abort: "EClaimsOver" }
  },
  { name: "claim_after_the_requested_close_fails", given: [...closeRequested, { op: "clock", ms: closeAtMs + 1n }], when: claim(120n), then: { abort: "EClaimsOver" } },
  { name: "claim_at_the_requested_close_succeeds", given: [...closeRequested, { op: "clock", ms: closeAtMs }], when: claim(120n), then: { ok: "SessionClaimed" } },
  { name: "claim_of_a_topped_up_deposit_succeeds", given: [...opened, { op: "topUp", amount: 100n }], when: claim(400n), then: { ok: "SessionClaimed" } },
  { name: "claim_on_an_old_version_session_fails", given: [...opened, { op: "sessionVersion", version: 0n }], when: claim(120n), then: { abort: "EWrongVersion" } },
  // close_session
  { name: "close_session_by_the_payee_before_expiry_returns_the_rest", given: [...opened, claim(120n)], when: { op: "closeSession" }, then: { ok: "SessionClosed" } },
  { name: "close_session_with_nothing_claimed_returns_the_deposit", given: opened, when: { op: "closeSession" }, then: { ok: "SessionClosed" } },
  { name: "close_session_with_everything_claimed_returns_nothing", given: [...opened, claim(300n)], when: { op: "closeSession" }, then: { ok: "SessionClosed" } },
  { name: "close_session_by_a_stranger_before_the_deadline_fails", given: opened, when: closeBy(STRANGER), then: { abort: "ESessionLive" } },
  { name: "close_session_by_the_delegate_before_the_deadline_fails", given: opened, when: closeBy(DELEGATE), then: { abort: "ESessionLive" } },
  { name: "close_session_by_a_stranger_at_the_deadline_fails", given: [...opened, { op: "clock", ms: SESSION_DEADLINE_MS }], when: closeBy(STRANGER), then: { abort: "ESessionLive" } },
  {
    name: "close_session_by_a_stranger_after_the_deadline_returns_the_rest",
    given: [...opened, claim(120n), { op: "clock", ms: SESSION_DEADLINE_MS + 1n }],
    when: closeBy(STRANGER),
    then: { ok: "SessionClosed" }
  },
  { name: "close_session_on_a_revoked_grant_works", given: [...opened, { op: "revoke" }], when: { op: "closeSession" }, then: { ok: "SessionClosed" } },
  { name: "close_session_on_a_paused_grant_works", given: paused, when: { op: "closeSession" }, then: { ok: "SessionClosed" } },
  { name: "close_session_after_the_grant_expired_works", given: [...opened, { op: "clock", ms: 10_000n }], when: { op: "closeSession" }, then: { ok: "SessionClosed" } },
  { name: "close_session_with_another_grant_fails", given: [...opened, anotherGrant], when: { op: "closeSession" }, then: { abort: "EWrongGrant" } },
  { name: "close_session_on_an_old_version_pool_fails", given: [...opened, { op: "poolVersion", version: 0n }], when: { op: "closeSession" }, then: { abort: "EWrongVersion" } },
  {
    name: "pay_after_a_session_closed_spends_what_it_returned",
    given: [...opened, claim(100n), { op: "closeSession" }, { op: "pay", amount: 200n }],
    when: { op: "pay", amount: 200n },
    then: { ok: "PaymentMade" }
  },
  { name: "close_session_in_its_window_gives_the_window_back", given: [...windowedOpen, claim(50n)], when: { op: "closeSession" }, then: { ok: "SessionClosed" } },
  {
    name: "close_session_after_the_window_rolled_gives_no_window_back",
    given: [...windowedOpen, claim(50n), { op: "clock", ms: 61_000n }, { op: "pay", amount: 100n }],
    when: { op: "closeSession" },
    then: { ok: "SessionClosed" }
  },
  {
    name: "close_session_past_its_window_end_does_not_roll_the_window",
    given: [...windowedOpen, { op: "clock", ms: 61_000n }],
    when: { op: "closeSession" },
    then: { ok: "SessionClosed" }
  },
  {
    name: "close_session_gives_a_window_back_at_most_what_it_charged_there",
    given: [...windowedOpen, { op: "clock", ms: 61_000n }, { op: "pay", amount: 30n }, { op: "topUp", amount: 50n }],
    when: { op: "closeSession" },
    then: { ok: "SessionClosed" }
  },
  // claim_and_close
  { name: "claim_and_close_with_a_final_voucher_pays_and_closes", given: opened, when: claimAndClose(120n), then: { ok: ["SessionClaimed", "SessionClosed"] } },
  { name: "claim_and_close_by_a_stranger_fails", given: opened, when: claimAndClose(120n, { sender: STRANGER }), then: { abort: "ENotCloser" } },
  {
    name: "claim_and_close_by_the_operator_succeeds",
    given: opened,
    when: claimAndClose(120n, { sender: OPERATOR }),
    then: { ok: ["SessionClaimed", "SessionClosed"] }
  },
  {
    name: "claim_and_close_checks_the_closer_before_the_deadline",
    given: [...opened, { op: "clock", ms: SESSION_DEADLINE_MS + 1n }],
    when: claimAndClose(120n, { sender: STRANGER }),
    then: { abort: "ENotCloser" }
  },
  { name: "claim_and_close_with_a_plain_voucher_fails", given: opened, when: claimAndClose(120n, { voucher: { final: false } }), then: { abort: "EBadVoucherSignature" } },
  { name: "claim_and_close_signed_by_another_key_fails", given: opened, when: claimAndClose(120n, { voucher: { signer: "other" } }), then: { abort: "EBadVoucherSignature" } },
  { name: "claim_and_close_below_what_was_claimed_only_closes", given: [...opened, claim(120n)], when: claimAndClose(100n), then: { ok: "SessionClosed" } },
  { name: "claim_and_close_above_the_deposit_fails", given: opened, when: claimAndClose(301n), then: { abort: "EExceedsDeposit" } },
  { name: "claim_and_close_after_the_claim_deadline_fails", given: [...opened, { op: "clock", ms: SESSION_DEADLINE_MS + 1n }], when: claimAndClose(120n), then: { abort: "EClaimsOver" } },
  { name: "claim_and_close_with_another_grant_fails", given: [...opened, anotherGrant], when: claimAndClose(120n), then: { abort: "EWrongGrant" } },
  {
    name: "claim_and_close_on_a_revoked_grant_works",
    given: [...opened, { op: "revoke" }],
    when: claimAndClose(300n),
    then: { ok: ["SessionClaimed", "SessionClosed"] }
  },
  // request_close
  { name: "request_close_on_a_paused_grant_sets_the_close", given: paused, when: { op: "requestClose" }, then: { ok: "SessionCloseRequested" } },
  { name: "request_close_on_a_revoked_grant_sets_the_close", given: [...opened, { op: "revoke" }], when: { op: "requestClose" }, then: { ok: "SessionCloseRequested" } },
  { name: "request_close_on_an_active_grant_fails", given: opened, when: { op: "requestClose" }, then: { abort: "EGrantActive" } },
  { name: "request_close_by_a_stranger_fails", given: paused, when: { op: "requestClose", sender: STRANGER }, then: { abort: "ENotOwner" } },
  { name: "request_close_by_the_delegate_fails", given: paused, when: { op: "requestClose", sender: DELEGATE }, then: { abort: "ENotOwner" } },
  {
    name: "request_close_again_later_keeps_the_earlier_close",
    given: [...closeRequested, { op: "clock", ms: 2_000n }],
    when: { op: "requestClose" },
    then: { ok: "SessionCloseRequested" }
  },
  { name: "request_close_with_another_grant_fails", given: [...paused, anotherGrant], when: { op: "requestClose" }, then: { abort: "EWrongGrant" } },
  { name: "close_session_by_a_stranger_at_the_requested_close_fails", given: [...closeRequested, { op: "clock", ms: closeAtMs }], when: closeBy(STRANGER), then: { abort: "ESessionLive" } },
  {
    name: "close_session_by_a_stranger_after_the_requested_close_returns_the_rest",
    given: [...closeRequested, { op: "clock", ms: closeAtMs + 1n }],
    when: closeBy(STRANGER),
    then: { ok: "SessionClosed" }
  },
  // migrate_session
  { name: "migrate_session_by_anyone_succeeds", given: [...opened, { op: "sessionVersion", version: 0n }], when: { op: "migrateSession", sender: STRANGER }, then: { ok: null } },
  { name: "migrate_session_at_the_current_version_fails", given: opened, when: { op: "migrateSession" }, then: { abort: "ENotUpgrade" } }
]

export const ModuleVectors: ReadonlyArray<Vector> = [
  // create_pool
  { name: "create_pool_shares_a_funded_pool_owned_by_the_sender", given: [], when: pool, then: { ok: "PoolCreated" } },
  {
    name: "create_pool_twice_for_the_same_owner_and_coin_aborts",
    given: [pool],
    when: pool,
    then: { frameworkAbort: "derived_object::claim" }
  },
  { name: "create_pool_for_another_coin_type_succeeds", given: [pool], when: { op: "createPool", amount: 5n, coinType: WRAPPED_COIN }, then: { ok: "PoolCreated" } },
  // deposit / withdraw
  { name: "deposit_adds_to_the_pool", given: [pool], when: { op: "deposit", amount: 50n }, then: { ok: "Deposited" } },
  { name: "deposit_by_non_owner_fails", given: [pool], when: { op: "deposit", sender: STRANGER, amount: 50n }, then: { abort: "ENotOwner" } },
  {
    name: "deposit_overflowing_the_pool_balance_aborts",
    given: [{ op: "createPool", amount: U64_MAX, coinType: BIG_COIN }],
    when: { op: "deposit", amount: 1n },
    then: { arithmeticError: "balance::join" }
  },
  { name: "withdraw_returns_the_coin_to_the_transaction", given: [pool], when: { op: "withdraw", amount: 300n }, then: { ok: null } },
  { name: "withdraw_more_than_the_balance_fails", given: [pool], when: { op: "withdraw", amount: 1_001n }, then: { abort: "EInsufficientBalance" } },
  { name: "withdraw_by_non_owner_fails", given: [pool], when: { op: "withdraw", sender: STRANGER, amount: 1n }, then: { abort: "ENotOwner" } },
  { name: "withdraw_on_an_old_version_pool_fails", given: [pool, { op: "poolVersion", version: 0n }], when: { op: "withdraw", amount: 1n }, then: { abort: "EWrongVersion" } },
  // create_policy_grant
  { name: "create_policy_grant_shares_a_grant_for_the_delegate", given: [pool], when: grant, then: { ok: "GrantCreated" } },
  { name: "create_policy_grant_twice_with_one_nonce_aborts", given: funded, when: grant, then: { abort: "ENonceUsed" } },
  { name: "create_policy_grant_with_another_nonce_succeeds", given: funded, when: { op: "createGrant", grantId: "g_0002" }, then: { ok: "GrantCreated" } },
  { name: "create_policy_grant_after_its_deadline_aborts", given: [pool, { op: "clock", ms: 5_001n }], when: grant, then: { abort: "EDeadlinePassed" } },
  { name: "create_policy_grant_at_its_deadline_succeeds", given: [pool, { op: "clock", ms: 5_000n }], when: grant, then: { ok: "GrantCreated" } },
  { name: "create_policy_grant_by_non_owner_fails", given: [pool], when: { op: "createGrant", sender: STRANGER }, then: { abort: "ENotOwner" } },
  {
    name: "create_policy_grant_checks_deadline_before_nonce",
    given: [...funded, { op: "clock", ms: 6_000n }],
    when: grant,
    then: { abort: "EDeadlinePassed" }
  },
  {
    name: "create_policy_grant_checks_nonce_before_caps",
    given: funded,
    when: { op: "createGrant", maxPerPayment: 0n },
    then: { abort: "ENonceUsed" }
  },
  { name: "create_policy_grant_with_zero_max_per_payment_fails", given: [pool], when: { op: "createGrant", maxPerPayment: 0n }, then: { abort: "EInvalidCaps" } },
  { name: "create_policy_grant_with_expiry_now_fails", given: [pool], when: { op: "createGrant", expiryMs: 1_000n }, then: { abort: "EExpired" } },
  {
    name: "create_policy_grant_on_an_old_version_pool_fails",
    given: [pool, { op: "poolVersion", version: 0n }],
    when: grant,
    then: { abort: "EWrongVersion" }
  },
  {
    name: "create_policy_grant_checks_version_before_owner",
    given: [pool, { op: "poolVersion", version: 0n }],
    when: { op: "createGrant", sender: STRANGER },
    then: { abort: "EWrongVersion" }
  },
  {
    name: "create_policy_grant_of_a_generic_coin_names_its_type",
    given: [{ op: "createPool", amount: 1_000n, coinType: WRAPPED_COIN }],
    when: grant,
    then: { ok: "GrantCreated" }
  },
  // migrate_*
  { name: "migrate_pool_then_create_policy_grant_succeeds", given: [pool, { op: "poolVersion", version: 0n }, { op: "migratePool" }], when: grant, then: { ok: "GrantCreated" } },
  { name: "migrate_pool_at_the_current_version_fails", given: [pool], when: { op: "migratePool" }, then: { abort: "ENotUpgrade" } },
  { name: "migrate_pool_by_anyone_succeeds", given: [pool, { op: "poolVersion", version: 0n }], when: { op: "migratePool", sender: STRANGER }, then: { ok: null } },
  { name: "migrate_grant_by_anyone_succeeds", given: [...funded, { op: "grantVersion", version: 0n }], when: { op: "migrateGrant", sender: STRANGER }, then: { ok: null } },
  {
    name: "migrate_pool_before_the_registry_is_at_this_version_fails",
    given: [pool, { op: "poolVersion", version: 0n }, olderRegistry],
    when: { op: "migratePool" },
    then: { abort: "EWrongVersion" }
  },
  { name: "migrate_grant_at_the_current_version_fails", given: funded, when: { op: "migrateGrant" }, then: { abort: "ENotUpgrade" } },
  {
    name: "migrate_grant_then_pause_grant_succeeds",
    given: [...funded, { op: "grantVersion", version: 0n }, { op: "migrateGrant" }],
    when: { op: "pause" },
    then: { ok: "GrantPauseSet" }
  },
  // revoke / pause / resume
  { name: "revoke_grant_marks_the_grant_revoked", given: funded, when: { op: "revoke" }, then: { ok: "GrantRevoked" } },
  { name: "revoke_grant_twice_fails", given: [...funded, { op: "revoke" }], when: { op: "revoke" }, then: { abort: "EAlreadyRevoked" } },
  { name: "revoke_grant_on_an_old_version_grant_fails", given: [...funded, { op: "grantVersion", version: 0n }], when: { op: "revoke" }, then: { abort: "EWrongVersion" } },
  { name: "pause_grant_twice_fails", given: [...funded, { op: "pause" }], when: { op: "pause" }, then: { abort: "EAlreadyPaused", in: "set_paused" } },
  { name: "resume_grant_when_not_paused_fails", given: funded, when: { op: "resume" }, then: { abort: "ENotPaused", in: "set_paused" } },
  { name: "pause_spend_grant_on_a_policy_grant_fails", given: funded, when: { op: "pause", kind: 1 }, then: { abort: "EWrongKind", in: "set_paused" } },
  { name: "pause_grant_on_an_old_version_grant_fails", given: [...funded, { op: "grantVersion", version: 0n }], when: { op: "pause" }, then: { abort: "EWrongVersion", in: "set_paused" } },
  // pay
  { name: "pay_sends_coins_and_accumulates_spent", given: funded, when: { op: "pay", amount: 200n }, then: { ok: "PaymentMade" } },
  { name: "pay_by_owner_fails", given: funded, when: { op: "pay", sender: OWNER, amount: 1n }, then: { abort: "ENotDelegate" } },
  { name: "pay_zero_fails", given: funded, when: { op: "pay", amount: 0n }, then: { abort: "EZeroAmount" } },
  { name: "pay_when_paused_fails", given: [...funded, { op: "pause" }], when: { op: "pay", amount: 1n }, then: { abort: "EPaused" } },
  { name: "pay_when_revoked_fails", given: [...funded, { op: "revoke" }], when: { op: "pay", amount: 1n }, then: { abort: "ERevoked" } },
  { name: "pay_at_expiry_fails", given: [...funded, { op: "clock", ms: 10_000n }], when: { op: "pay", amount: 1n }, then: { abort: "EExpired" } },
  { name: "pay_above_max_per_payment_fails", given: funded, when: { op: "pay", amount: 201n }, then: { abort: "EExceedsMaxPerPayment" } },
  {
    name: "pay_above_the_session_cap_fails",
    given: [...funded, { op: "pay", amount: 200n }, { op: "pay", amount: 200n }],
    when: { op: "pay", amount: 101n },
    then: { abort: "EExceedsSessionCap" }
  },
  {
    name: "pay_above_the_pool_balance_fails",
    given: [pool, grant, { op: "withdraw", amount: 950n }],
    when: { op: "pay", amount: 51n },
    then: { abort: "EInsufficientBalance" }
  },
  { name: "pay_on_an_old_version_grant_fails", given: [...funded, { op: "grantVersion", version: 0n }], when: { op: "pay", amount: 1n }, then: { abort: "EWrongVersion" } },
  { name: "pay_on_an_old_version_pool_fails", given: [...funded, { op: "poolVersion", version: 0n }], when: { op: "pay", amount: 1n }, then: { abort: "EWrongVersion" } },
  // the package version in the Registry: an upgrade's `set_version` switches older code off
  { name: "pay_after_a_newer_package_set_its_version_aborts", given: [...funded, newerPackage], when: { op: "pay", amount: 1n }, then: { abort: "EWrongVersion" } },
  { name: "create_pool_after_a_newer_package_set_its_version_aborts", given: [newerPackage], when: pool, then: { abort: "EWrongVersion" } },
  { name: "create_policy_grant_after_a_newer_package_set_its_version_aborts", given: [pool, newerPackage], when: grant, then: { abort: "EWrongVersion" } },
  { name: "deposit_after_a_newer_package_set_its_version_aborts", given: [pool, newerPackage], when: { op: "deposit", amount: 1n }, then: { abort: "EWrongVersion" } },
  { name: "revoke_grant_after_a_newer_package_set_its_version_aborts", given: [...funded, newerPackage], when: { op: "revoke" }, then: { abort: "EWrongVersion" } },
  {
    name: "pause_grant_after_a_newer_package_set_its_version_aborts",
    given: [...funded, newerPackage],
    when: { op: "pause" },
    then: { abort: "EWrongVersion", in: "set_paused" }
  },
  { name: "pay_before_set_version_on_an_older_registry_aborts", given: [...funded, olderRegistry], when: { op: "pay", amount: 1n }, then: { abort: "EWrongVersion" } },
  { name: "set_version_moves_an_older_registry_to_this_version", given: [olderRegistry], when: { op: "setVersion", sender: ADMIN }, then: { ok: "VersionSet" } },
  {
    name: "pay_after_set_version_succeeds",
    given: [...funded, olderRegistry, { op: "setVersion", sender: ADMIN }],
    when: { op: "pay", amount: 100n },
    then: { ok: "PaymentMade" }
  },
  { name: "set_version_at_this_version_fails", given: [], when: { op: "setVersion", sender: ADMIN }, then: { abort: "ENotUpgrade" } },
  // windows
  { name: "create_policy_grant_with_a_window_shares_it_open", given: [pool], when: windowedGrant, then: { ok: "GrantCreated" } },
  { name: "create_policy_grant_with_a_monthly_window_starts_it_at_the_month", given: [pool], when: monthlyGrant, then: { ok: "GrantCreated" } },
  {
    name: "create_policy_grant_with_a_period_under_a_minute_fails",
    given: [pool],
    when: { op: "createGrant", window: { kind: WindowKind.period, periodMs: 59_999n, limit: 300n } },
    then: { abort: "EInvalidWindow" }
  },
  {
    name: "create_policy_grant_with_a_window_of_no_limit_fails",
    given: [pool],
    when: { op: "createGrant", window: { kind: WindowKind.calendarMonth, periodMs: 0n, limit: 0n } },
    then: { abort: "EInvalidWindow" }
  },
  {
    name: "create_policy_grant_with_an_unknown_window_kind_fails",
    given: [pool],
    when: { op: "createGrant", window: { kind: 3, periodMs: 0n, limit: 300n } },
    then: { abort: "EInvalidWindow" }
  },
  { name: "pay_within_the_window_limit_succeeds", given: [...windowed, { op: "pay", amount: 200n }], when: { op: "pay", amount: 100n }, then: { ok: "PaymentMade" } },
  {
    name: "pay_above_the_window_limit_fails",
    given: [...windowed, { op: "pay", amount: 200n }],
    when: { op: "pay", amount: 101n },
    then: { abort: "EExceedsWindowLimit" }
  },
  {
    name: "pay_at_the_end_of_the_window_is_still_held_to_it",
    given: [...windowed, { op: "pay", amount: 200n }, { op: "clock", ms: 60_999n }],
    when: { op: "pay", amount: 101n },
    then: { abort: "EExceedsWindowLimit" }
  },
  {
    name: "pay_in_the_next_window_succeeds",
    given: [...windowed, { op: "pay", amount: 200n }, { op: "pay", amount: 100n }, { op: "clock", ms: 61_000n }],
    when: { op: "pay", amount: 200n },
    then: { ok: "PaymentMade" }
  },
  {
    name: "pay_in_the_next_window_is_still_held_to_the_session_cap",
    given: [...windowed, { op: "pay", amount: 200n }, { op: "pay", amount: 100n }, { op: "clock", ms: 61_000n }, { op: "pay", amount: 200n }],
    when: { op: "pay", amount: 1n },
    then: { abort: "EExceedsSessionCap" }
  },
  {
    name: "pay_before_the_month_boundary_is_held_to_the_monthly_limit",
    given: [...monthly, { op: "pay", amount: 200n }, { op: "pay", amount: 100n }, { op: "clock", ms: FEBRUARY_1970_MS - 1n }],
    when: { op: "pay", amount: 1n },
    then: { abort: "EExceedsWindowLimit" }
  },
  {
    name: "pay_after_the_month_boundary_in_utc_succeeds",
    given: [...monthly, { op: "pay", amount: 200n }, { op: "pay", amount: 100n }, { op: "clock", ms: FEBRUARY_1970_MS }],
    when: { op: "pay", amount: 200n },
    then: { ok: "PaymentMade" }
  },
  // recipients
  { name: "pay_to_a_listed_recipient_succeeds", given: listed, when: { op: "pay", amount: 10n, recipient: addr(0xb0b) }, then: { ok: "PaymentMade" } },
  { name: "pay_to_a_recipient_not_on_the_list_fails", given: listed, when: { op: "pay", amount: 10n, recipient: STRANGER }, then: { abort: "ERecipientNotAllowed" } },
  {
    name: "pay_checks_the_recipient_before_the_limits",
    given: listed,
    when: { op: "pay", amount: 201n, recipient: STRANGER },
    then: { abort: "ERecipientNotAllowed" }
  },
  {
    name: "create_policy_grant_with_sixteen_recipients_succeeds",
    given: [pool],
    when: { op: "createGrant", recipients: Array.from({ length: 16 }, (_, i) => addr(0xc000 + i)) },
    then: { ok: "GrantCreated" }
  },
  {
    name: "create_policy_grant_with_seventeen_recipients_fails",
    given: [pool],
    when: { op: "createGrant", recipients: Array.from({ length: 17 }, (_, i) => addr(0xc000 + i)) },
    then: { abort: "ETooManyRecipients" }
  },
  // the nonce table stays bounded: deadlines are at most a week away, and nonces past theirs can be forgotten
  {
    name: "create_policy_grant_with_a_deadline_over_a_week_away_fails",
    given: [pool],
    when: { op: "createGrant", deadlineMs: 1_000n + 604_800_001n },
    then: { abort: "EDeadlineTooFar" }
  },
  {
    name: "create_policy_grant_with_a_deadline_a_week_away_succeeds",
    given: [pool],
    when: { op: "createGrant", deadlineMs: 1_000n + 604_800_000n },
    then: { ok: "GrantCreated" }
  },
  { name: "forget_nonce_before_its_deadline_fails", given: funded, when: { op: "forgetNonce", sender: STRANGER }, then: { abort: "ENonceLive" } },
  { name: "forget_nonce_at_its_deadline_fails", given: [...funded, { op: "clock", ms: 5_000n }], when: { op: "forgetNonce", sender: STRANGER }, then: { abort: "ENonceLive" } },
  { name: "forget_nonce_after_its_deadline_succeeds", given: [...funded, { op: "clock", ms: 5_001n }], when: { op: "forgetNonce", sender: STRANGER }, then: { ok: null } },
  {
    name: "forget_nonce_of_an_unknown_nonce_fails",
    given: [...funded, { op: "clock", ms: 5_001n }],
    when: { op: "forgetNonce", grantId: "g_unknown" },
    then: { abort: "ENonceUnknown" }
  },
  {
    name: "create_policy_grant_after_its_nonce_was_forgotten_still_fails",
    given: [...funded, { op: "clock", ms: 5_001n }, { op: "forgetNonce" }],
    when: grant,
    then: { abort: "EDeadlinePassed" }
  },
  {
    name: "pay_checks_versions_before_delegate",
    given: [...funded, { op: "poolVersion", version: 0n }],
    when: { op: "pay", sender: STRANGER, amount: 1n },
    then: { abort: "EWrongVersion" }
  },
  ...sessionVectors
]

/** Who signs a step when the step does not say: the delegate pays and deposits into sessions, the payee claims and closes, the owner does everything else. */
export const senderOf = (step: Step) => {
  if ("sender" in step && step.sender !== undefined) return step.sender
  if (step.op === "pay" || step.op === "openSession" || step.op === "topUp") return DELEGATE
  if (step.op === "claim" || step.op === "claimAndClose" || step.op === "closeSession") return RECIPIENT
  return OWNER
}
