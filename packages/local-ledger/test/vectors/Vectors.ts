import { WindowKind } from "@gateway/domain/chain/GrantWindow"
import type { AbortName, EventName } from "@gateway/domain/chain/SpendAccountModule"
import { ADMIN, addr, DELEGATE, OWNER, RECIPIENT, STRANGER } from "./World.ts"

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
  /** State edits, not transactions: an object or the Registry as another package version left it; the Clock moving. */
  | { readonly op: "poolVersion" | "grantVersion" | "registryVersion"; readonly version: bigint }
  | { readonly op: "clock"; readonly ms: bigint }

export type Outcome =
  /** Success, emitting this event (or none). */
  | { readonly ok: EventName | null }
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
  }
]

/** Who signs a step when the step does not say: the delegate pays, the owner does everything else. */
export const senderOf = (step: Step) => ("sender" in step && step.sender !== undefined ? step.sender : step.op === "pay" ? DELEGATE : OWNER)
