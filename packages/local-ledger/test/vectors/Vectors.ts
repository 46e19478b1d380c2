import type { AbortName, EventName } from "@gateway/domain/chain/SpendAccountModule"
import { DELEGATE, OWNER, STRANGER } from "./World.ts"

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
  }
  | { readonly op: "pay"; readonly sender?: string; readonly amount: bigint }
  | { readonly op: "pause" | "resume" | "revoke"; readonly sender?: string; readonly kind?: number }
  | { readonly op: "migratePool" | "migrateGrant"; readonly sender?: string }
  /** State edits, not transactions: an object as an older package version left it; the Clock moving. */
  | { readonly op: "poolVersion" | "grantVersion"; readonly version: bigint }
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
  { name: "migrate_pool_by_non_owner_fails", given: [pool, { op: "poolVersion", version: 0n }], when: { op: "migratePool", sender: STRANGER }, then: { abort: "ENotOwner" } },
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
  {
    name: "pay_checks_versions_before_delegate",
    given: [...funded, { op: "poolVersion", version: 0n }],
    when: { op: "pay", sender: STRANGER, amount: 1n },
    then: { abort: "EWrongVersion" }
  }
]

/** Who signs a step when the step does not say: the delegate pays, the owner does everything else. */
export const senderOf = (step: Step) => ("sender" in step && step.sender !== undefined ? step.sender : step.op === "pay" ? DELEGATE : OWNER)
