#[test_only]
module spend_account::spend_account_tests;

// The module is aliased as `sa` (not `Self`) so that the name `spend_account`
// keeps meaning the package address, and the full paths in
// `expected_failure(abort_code = spend_account::spend_account::E...)` resolve
// without ambiguity.
use spend_account::spend_account::{Self as sa, Pool, Grant, Registry};
use std::type_name;
use sui::clock::{Self, Clock};
use sui::coin::{Coin, mint_for_testing};
use sui::event;
use sui::sui::SUI;
use sui::test_scenario::{Self as ts, Scenario};

const OWNER: address = @0xA11CE;
const DELEGATE: address = @0xDE1E;
const STRANGER: address = @0x5157;
const RECIPIENT: address = @0xCAFE;

/// What the pool is funded with at the start of every test.
const INITIAL: u64 = 1_000;
/// Limits of the default grant.
const SESSION_CAP: u64 = 500;
const MAX_PER_PAYMENT: u64 = 200;
const EXPIRY_MS: u64 = 10_000;

/// A deadline no test's clock reaches, for the tests that are not about deadlines.
const NO_DEADLINE: u64 = 18_446_744_073_709_551_615;
/// The nonce and deadline of the grant the vectors create (`packages/local-ledger/test/vectors/Vectors.ts`).
const NONCE: vector<u8> = b"g_0001";
const DEADLINE_MS: u64 = 5_000;
const U64_MAX: u64 = 18_446_744_073_709_551_615;

const KIND_POLICY: u8 = 0;
const KIND_SPEND: u8 = 1;
const KIND_OPEN: u8 = 2;

/// A generic coin type for the vectors: `type_name` names its argument too.
public struct Wrapper<phantom T> has drop {}
public struct Y has drop {}

// === Helpers ===

/// Begin a scenario with the package published (its Registry shared), a
/// clock at 0 and a pool of `INITIAL` owned by `OWNER`. Returns the pool's ID.
fun start(): (Scenario, Clock, ID) {
    let mut scenario = publish();
    let clock = clock::create_for_testing(scenario.ctx());
    let pool_id = new_pool(&mut scenario, OWNER, INITIAL);
    (scenario, clock, pool_id)
}

fun finish(scenario: Scenario, clock: Clock) {
    clock.destroy_for_testing();
    scenario.end();
}

/// A scenario in which the package's `init` has run.
fun publish(): Scenario {
    let mut scenario = ts::begin(OWNER);
    sa::init_for_testing(scenario.ctx());
    scenario
}

/// Create a pool of `amount` as `owner`, in its own transaction.
fun new_pool(scenario: &mut Scenario, owner: address, amount: u64): ID {
    new_pool_of<SUI>(scenario, owner, amount)
}

fun new_pool_of<T>(scenario: &mut Scenario, owner: address, amount: u64): ID {
    scenario.next_tx(owner);
    let mut registry = scenario.take_shared<Registry>();
    let coin = mint_for_testing<T>(amount, scenario.ctx());
    sa::create_pool(&mut registry, coin, scenario.ctx());
    ts::return_shared(registry);
    scenario.next_tx(owner);
    ts::most_recent_id_shared<Pool<T>>().destroy_some()
}

/// Create a policy grant for `DELEGATE` on `pool_id` as `OWNER`.
fun new_grant(
    scenario: &mut Scenario,
    clock: &Clock,
    pool_id: ID,
    session_cap: u64,
    max_per_payment: u64,
    expiry_ms: u64,
): ID {
    create_grant_as(scenario, OWNER, clock, pool_id, session_cap, max_per_payment, expiry_ms);
    scenario.next_tx(OWNER);
    ts::most_recent_id_shared<Grant>().destroy_some()
}

/// A grant with the default limits.
fun default_grant(scenario: &mut Scenario, clock: &Clock, pool_id: ID): ID {
    new_grant(scenario, clock, pool_id, SESSION_CAP, MAX_PER_PAYMENT, EXPIRY_MS)
}

/// A create with a nonce of its own and no deadline to speak of.
fun create_grant_as(
    scenario: &mut Scenario,
    sender: address,
    clock: &Clock,
    pool_id: ID,
    session_cap: u64,
    max_per_payment: u64,
    expiry_ms: u64,
) {
    let unique = scenario.ctx().fresh_object_address();
    let nonce = std::bcs::to_bytes(&unique);
    create_grant_with<SUI>(scenario, sender, clock, pool_id, nonce, NO_DEADLINE, session_cap, max_per_payment, expiry_ms);
}

/// The vectors' create: `NONCE`, `DEADLINE_MS` and the default limits.
fun vector_grant<T>(scenario: &mut Scenario, sender: address, clock: &Clock, pool_id: ID) {
    create_grant_with<T>(scenario, sender, clock, pool_id, NONCE, DEADLINE_MS, SESSION_CAP, MAX_PER_PAYMENT, EXPIRY_MS);
}

fun create_grant_with<T>(
    scenario: &mut Scenario,
    sender: address,
    clock: &Clock,
    pool_id: ID,
    nonce: vector<u8>,
    deadline_ms: u64,
    session_cap: u64,
    max_per_payment: u64,
    expiry_ms: u64,
) {
    scenario.next_tx(sender);
    let mut pool = scenario.take_shared_by_id<Pool<T>>(pool_id);
    sa::create_policy_grant(
        &mut pool,
        nonce,
        deadline_ms,
        DELEGATE,
        session_cap,
        max_per_payment,
        expiry_ms,
        vector[7, 8],
        clock,
        scenario.ctx(),
    );
    ts::return_shared(pool);
}

fun deposit_as(scenario: &mut Scenario, sender: address, pool_id: ID, amount: u64) {
    scenario.next_tx(sender);
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    let coin = mint_for_testing<SUI>(amount, scenario.ctx());
    sa::deposit(&mut pool, coin, scenario.ctx());
    ts::return_shared(pool);
}

fun withdraw_as(scenario: &mut Scenario, sender: address, pool_id: ID, amount: u64) {
    scenario.next_tx(sender);
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    sa::withdraw(&mut pool, amount, scenario.ctx());
    ts::return_shared(pool);
}

fun revoke_as(scenario: &mut Scenario, sender: address, grant_id: ID) {
    scenario.next_tx(sender);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::revoke_grant(&mut grant, scenario.ctx());
    ts::return_shared(grant);
}

/// Pause through the function for grant kind `kind`.
fun pause_as(scenario: &mut Scenario, sender: address, grant_id: ID, kind: u8) {
    scenario.next_tx(sender);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    if (kind == KIND_POLICY) sa::pause_grant(&mut grant, scenario.ctx())
    else if (kind == KIND_SPEND) sa::pause_spend_grant(&mut grant, scenario.ctx())
    else sa::pause_open_grant(&mut grant, scenario.ctx());
    ts::return_shared(grant);
}

/// Resume through the function for grant kind `kind`.
fun resume_as(scenario: &mut Scenario, sender: address, grant_id: ID, kind: u8) {
    scenario.next_tx(sender);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    if (kind == KIND_POLICY) sa::resume_grant(&mut grant, scenario.ctx())
    else if (kind == KIND_SPEND) sa::resume_spend_grant(&mut grant, scenario.ctx())
    else sa::resume_open_grant(&mut grant, scenario.ctx());
    ts::return_shared(grant);
}

fun set_kind(scenario: &mut Scenario, grant_id: ID, kind: u8) {
    scenario.next_tx(OWNER);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::set_kind_for_testing(&mut grant, kind);
    ts::return_shared(grant);
}

fun pay_as(
    scenario: &mut Scenario,
    sender: address,
    clock: &Clock,
    grant_id: ID,
    pool_id: ID,
    amount: u64,
) {
    scenario.next_tx(sender);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    sa::pay(&mut grant, &mut pool, amount, RECIPIENT, b"invoice-1", clock, scenario.ctx());
    ts::return_shared(grant);
    ts::return_shared(pool);
}

/// Leave the pool as an older package version would have: its `version` below this one's.
fun set_pool_version(scenario: &mut Scenario, pool_id: ID, version: u64) {
    scenario.next_tx(OWNER);
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    sa::set_pool_version_for_testing(&mut pool, version);
    ts::return_shared(pool);
}

fun set_grant_version(scenario: &mut Scenario, grant_id: ID, version: u64) {
    scenario.next_tx(OWNER);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::set_grant_version_for_testing(&mut grant, version);
    ts::return_shared(grant);
}

fun migrate_pool_as(scenario: &mut Scenario, sender: address, pool_id: ID) {
    scenario.next_tx(sender);
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    sa::migrate_pool(&mut pool, scenario.ctx());
    ts::return_shared(pool);
}

fun migrate_grant_as(scenario: &mut Scenario, sender: address, grant_id: ID) {
    scenario.next_tx(sender);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::migrate_grant(&mut grant, scenario.ctx());
    ts::return_shared(grant);
}

/// The vectors' grant on the pool, at the clock's current time; returns its ID.
fun vector_grant_id(scenario: &mut Scenario, clock: &Clock, pool_id: ID): ID {
    vector_grant<SUI>(scenario, OWNER, clock, pool_id);
    scenario.next_tx(OWNER);
    ts::most_recent_id_shared<Grant>().destroy_some()
}

fun assert_pool_value(scenario: &mut Scenario, pool_id: ID, expected: u64) {
    scenario.next_tx(OWNER);
    let pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    assert!(pool.pool_value() == expected);
    ts::return_shared(pool);
}

/// Returns (spent, paused, revoked) of the grant.
fun grant_state(scenario: &mut Scenario, grant_id: ID): (u64, bool, bool) {
    scenario.next_tx(OWNER);
    let grant = scenario.take_shared_by_id<Grant>(grant_id);
    let spent = grant.grant_spent();
    let paused = grant.grant_paused();
    let revoked = grant.grant_revoked();
    ts::return_shared(grant);
    (spent, paused, revoked)
}

// === Happy paths ===

#[test]
fun create_pool_shares_a_funded_pool_owned_by_the_sender() {
    let mut scenario = publish();
    scenario.next_tx(OWNER);
    let mut registry = scenario.take_shared<Registry>();
    let coin = mint_for_testing<SUI>(INITIAL, scenario.ctx());
    sa::create_pool(&mut registry, coin, scenario.ctx());
    ts::return_shared(registry);
    let events = event::events_by_type<sa::PoolCreated>();
    let effects = scenario.next_tx(OWNER);
    assert!(effects.num_user_events() == 1);

    let pool_id = ts::most_recent_id_shared<Pool<SUI>>().destroy_some();
    let expected = sa::pool_created_for_testing(
        pool_id,
        OWNER,
        type_name::with_defining_ids<SUI>().into_string(),
    );
    assert!(events[events.length() - 1] == expected);

    let pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    assert!(pool.pool_owner() == OWNER);
    assert!(pool.pool_value() == INITIAL);
    assert!(pool.pool_version() == 1);
    ts::return_shared(pool);
    scenario.end();
}

#[test]
fun deposit_adds_to_the_pool() {
    let (mut scenario, clock, pool_id) = start();
    scenario.next_tx(OWNER);
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    let coin = mint_for_testing<SUI>(250, scenario.ctx());
    sa::deposit(&mut pool, coin, scenario.ctx());
    let events = event::events_by_type<sa::Deposited>();
    assert!(events[events.length() - 1] == sa::deposited_for_testing(pool_id, 250));
    assert!(pool.pool_value() == INITIAL + 250);
    ts::return_shared(pool);
    let effects = scenario.next_tx(OWNER);
    assert!(effects.num_user_events() == 1);
    finish(scenario, clock);
}

#[test]
fun withdraw_sends_a_coin_to_the_owner() {
    let (mut scenario, clock, pool_id) = start();
    withdraw_as(&mut scenario, OWNER, pool_id, 300);
    scenario.next_tx(OWNER);
    let coin = scenario.take_from_address<Coin<SUI>>(OWNER);
    assert!(coin.value() == 300);
    coin.burn_for_testing();
    assert_pool_value(&mut scenario, pool_id, INITIAL - 300);
    finish(scenario, clock);
}

#[test]
fun withdraw_can_empty_the_pool() {
    let (mut scenario, clock, pool_id) = start();
    withdraw_as(&mut scenario, OWNER, pool_id, INITIAL);
    assert_pool_value(&mut scenario, pool_id, 0);
    finish(scenario, clock);
}

#[test]
fun create_policy_grant_shares_a_grant_for_the_delegate() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(1_000);
    scenario.next_tx(OWNER);
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    sa::create_policy_grant(
        &mut pool,
        NONCE,
        DEADLINE_MS,
        DELEGATE,
        SESSION_CAP,
        MAX_PER_PAYMENT,
        EXPIRY_MS,
        vector[7, 8],
        &clock,
        scenario.ctx(),
    );
    let events = event::events_by_type<sa::GrantCreated>();
    ts::return_shared(pool);
    let effects = scenario.next_tx(OWNER);
    assert!(effects.num_user_events() == 1);

    let grant_id = ts::most_recent_id_shared<Grant>().destroy_some();
    let expected = sa::grant_created_for_testing(
        grant_id,
        NONCE,
        pool_id,
        OWNER,
        DELEGATE,
        type_name::with_defining_ids<SUI>().into_string(),
        SESSION_CAP,
        MAX_PER_PAYMENT,
        EXPIRY_MS,
        vector[7, 8],
    );
    assert!(events[events.length() - 1] == expected);

    let grant = scenario.take_shared_by_id<Grant>(grant_id);
    assert!(grant.grant_pool_id() == pool_id);
    assert!(grant.grant_owner() == OWNER);
    assert!(grant.grant_delegate() == DELEGATE);
    assert!(grant.grant_session_cap() == SESSION_CAP);
    assert!(grant.grant_spent() == 0);
    assert!(grant.grant_max_per_payment() == MAX_PER_PAYMENT);
    assert!(grant.grant_expiry_ms() == EXPIRY_MS);
    assert!(!grant.grant_paused());
    assert!(!grant.grant_revoked());
    assert!(grant.grant_policy_ids() == vector[7, 8]);
    assert!(grant.grant_kind() == KIND_POLICY);
    assert!(grant.grant_version() == 1);
    ts::return_shared(grant);
    finish(scenario, clock);
}

#[test]
fun create_policy_grant_accepts_max_equal_to_cap_and_no_expiry() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(50_000);
    let grant_id = new_grant(&mut scenario, &clock, pool_id, 300, 300, 0);
    // No expiry: still usable however late it gets.
    clock.set_for_testing(1_000_000_000);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 300);
    let (spent, _, _) = grant_state(&mut scenario, grant_id);
    assert!(spent == 300);
    finish(scenario, clock);
}

#[test]
fun revoke_grant_marks_the_grant_revoked() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    scenario.next_tx(OWNER);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::revoke_grant(&mut grant, scenario.ctx());
    let events = event::events_by_type<sa::GrantRevoked>();
    let expected = sa::grant_revoked_for_testing(grant_id, pool_id, OWNER);
    assert!(events[events.length() - 1] == expected);
    assert!(grant.grant_revoked());
    ts::return_shared(grant);
    let effects = scenario.next_tx(OWNER);
    assert!(effects.num_user_events() == 1);
    finish(scenario, clock);
}

#[test]
fun revoke_grant_works_on_a_paused_grant() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    revoke_as(&mut scenario, OWNER, grant_id);
    let (_, paused, revoked) = grant_state(&mut scenario, grant_id);
    assert!(paused && revoked);
    finish(scenario, clock);
}

#[test]
fun pause_grant_then_resume_grant() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);

    scenario.next_tx(OWNER);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::pause_grant(&mut grant, scenario.ctx());
    let events = event::events_by_type<sa::GrantPauseSet>();
    let expected = sa::grant_pause_set_for_testing(grant_id, pool_id, OWNER, true);
    assert!(events[events.length() - 1] == expected);
    assert!(grant.grant_paused());
    ts::return_shared(grant);
    let effects = scenario.next_tx(OWNER);
    assert!(effects.num_user_events() == 1);

    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::resume_grant(&mut grant, scenario.ctx());
    let events = event::events_by_type<sa::GrantPauseSet>();
    let expected = sa::grant_pause_set_for_testing(grant_id, pool_id, OWNER, false);
    assert!(events[events.length() - 1] == expected);
    assert!(!grant.grant_paused());
    ts::return_shared(grant);
    let effects = scenario.next_tx(OWNER);
    assert!(effects.num_user_events() == 1);

    // Usable again after resuming.
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 100);
    let (spent, _, _) = grant_state(&mut scenario, grant_id);
    assert!(spent == 100);
    finish(scenario, clock);
}

#[test]
fun pause_spend_grant_then_resume_spend_grant() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    set_kind(&mut scenario, grant_id, KIND_SPEND);
    pause_as(&mut scenario, OWNER, grant_id, KIND_SPEND);
    let (_, paused, _) = grant_state(&mut scenario, grant_id);
    assert!(paused);
    resume_as(&mut scenario, OWNER, grant_id, KIND_SPEND);
    let (_, paused, _) = grant_state(&mut scenario, grant_id);
    assert!(!paused);
    finish(scenario, clock);
}

#[test]
fun pause_open_grant_then_resume_open_grant() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    set_kind(&mut scenario, grant_id, KIND_OPEN);
    pause_as(&mut scenario, OWNER, grant_id, KIND_OPEN);
    let (_, paused, _) = grant_state(&mut scenario, grant_id);
    assert!(paused);
    resume_as(&mut scenario, OWNER, grant_id, KIND_OPEN);
    let (_, paused, _) = grant_state(&mut scenario, grant_id);
    assert!(!paused);
    finish(scenario, clock);
}

#[test]
fun pay_sends_coins_and_accumulates_spent() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);

    scenario.next_tx(DELEGATE);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    sa::pay(&mut grant, &mut pool, 200, RECIPIENT, b"invoice-1", &clock, scenario.ctx());
    let events = event::events_by_type<sa::PaymentMade>();
    let expected = sa::payment_made_for_testing(
        grant_id,
        pool_id,
        DELEGATE,
        RECIPIENT,
        200,
        200,
        b"invoice-1",
    );
    assert!(events[events.length() - 1] == expected);
    assert!(grant.grant_spent() == 200);
    assert!(pool.pool_value() == INITIAL - 200);
    ts::return_shared(grant);
    ts::return_shared(pool);
    let effects = scenario.next_tx(DELEGATE);
    assert!(effects.num_user_events() == 1);

    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    sa::pay(&mut grant, &mut pool, 150, RECIPIENT, b"invoice-2", &clock, scenario.ctx());
    let events = event::events_by_type<sa::PaymentMade>();
    let expected = sa::payment_made_for_testing(
        grant_id,
        pool_id,
        DELEGATE,
        RECIPIENT,
        150,
        350,
        b"invoice-2",
    );
    assert!(events[events.length() - 1] == expected);
    ts::return_shared(grant);
    ts::return_shared(pool);

    scenario.next_tx(RECIPIENT);
    assert!(ts::ids_for_address<Coin<SUI>>(RECIPIENT).length() == 2);
    let a = scenario.take_from_address<Coin<SUI>>(RECIPIENT);
    let b = scenario.take_from_address<Coin<SUI>>(RECIPIENT);
    assert!(a.value() + b.value() == 350);
    assert!(a.value() == 150 || a.value() == 200);
    assert!(b.value() == 150 || b.value() == 200);
    a.burn_for_testing();
    b.burn_for_testing();

    let (spent, _, _) = grant_state(&mut scenario, grant_id);
    assert!(spent == 350);
    assert_pool_value(&mut scenario, pool_id, INITIAL - 350);
    finish(scenario, clock);
}

#[test]
fun pay_can_use_up_the_session_cap_exactly() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 200);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 200);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 100);
    let (spent, _, _) = grant_state(&mut scenario, grant_id);
    assert!(spent == SESSION_CAP);
    finish(scenario, clock);
}

#[test]
fun pay_works_until_just_before_expiry() {
    let (mut scenario, mut clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    clock.set_for_testing(EXPIRY_MS - 1);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 1);
    let (spent, _, _) = grant_state(&mut scenario, grant_id);
    assert!(spent == 1);
    finish(scenario, clock);
}

#[test]
fun pay_can_empty_the_pool() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = new_grant(&mut scenario, &clock, pool_id, INITIAL, INITIAL, 0);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, INITIAL);
    assert_pool_value(&mut scenario, pool_id, 0);
    finish(scenario, clock);
}

// === deposit / withdraw failures ===

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun deposit_by_non_owner_fails() {
    let (mut scenario, clock, pool_id) = start();
    deposit_as(&mut scenario, STRANGER, pool_id, 10);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun withdraw_by_non_owner_fails() {
    let (mut scenario, clock, pool_id) = start();
    withdraw_as(&mut scenario, STRANGER, pool_id, 10);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun withdraw_by_delegate_fails() {
    let (mut scenario, clock, pool_id) = start();
    default_grant(&mut scenario, &clock, pool_id);
    withdraw_as(&mut scenario, DELEGATE, pool_id, 10);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInsufficientBalance)]
fun withdraw_more_than_the_balance_fails() {
    let (mut scenario, clock, pool_id) = start();
    withdraw_as(&mut scenario, OWNER, pool_id, INITIAL + 1);
    finish(scenario, clock);
}

// === create_policy_grant failures (order: owner, caps, expiry) ===

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun create_policy_grant_by_non_owner_fails() {
    let (mut scenario, clock, pool_id) = start();
    create_grant_as(&mut scenario, STRANGER, &clock, pool_id, SESSION_CAP, MAX_PER_PAYMENT, 0);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInvalidCaps)]
fun create_policy_grant_with_zero_max_per_payment_fails() {
    let (mut scenario, clock, pool_id) = start();
    create_grant_as(&mut scenario, OWNER, &clock, pool_id, SESSION_CAP, 0, 0);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInvalidCaps)]
fun create_policy_grant_with_max_above_session_cap_fails() {
    let (mut scenario, clock, pool_id) = start();
    create_grant_as(&mut scenario, OWNER, &clock, pool_id, 100, 101, 0);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExpired)]
fun create_policy_grant_with_expiry_in_the_past_fails() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(5_000);
    create_grant_as(&mut scenario, OWNER, &clock, pool_id, SESSION_CAP, MAX_PER_PAYMENT, 4_999);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExpired)]
fun create_policy_grant_with_expiry_now_fails() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(5_000);
    create_grant_as(&mut scenario, OWNER, &clock, pool_id, SESSION_CAP, MAX_PER_PAYMENT, 5_000);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun create_policy_grant_checks_owner_before_caps() {
    let (mut scenario, clock, pool_id) = start();
    create_grant_as(&mut scenario, STRANGER, &clock, pool_id, 100, 0, 0);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInvalidCaps)]
fun create_policy_grant_checks_caps_before_expiry() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(5_000);
    create_grant_as(&mut scenario, OWNER, &clock, pool_id, 100, 0, 1);
    finish(scenario, clock);
}

// === revoke_grant failures ===

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun revoke_grant_by_non_owner_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    revoke_as(&mut scenario, DELEGATE, grant_id);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EAlreadyRevoked)]
fun revoke_grant_twice_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    revoke_as(&mut scenario, OWNER, grant_id);
    revoke_as(&mut scenario, OWNER, grant_id);
    finish(scenario, clock);
}

// === pause / resume failures (order: owner, kind, revoked, pause state) ===

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun pause_grant_by_non_owner_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, DELEGATE, grant_id, KIND_POLICY);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun resume_grant_by_non_owner_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    resume_as(&mut scenario, DELEGATE, grant_id, KIND_POLICY);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EAlreadyPaused)]
fun pause_grant_twice_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotPaused)]
fun resume_grant_when_not_paused_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    resume_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ERevoked)]
fun pause_revoked_grant_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    revoke_as(&mut scenario, OWNER, grant_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ERevoked)]
fun resume_revoked_grant_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    revoke_as(&mut scenario, OWNER, grant_id);
    resume_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongKind)]
fun pause_spend_grant_on_a_policy_grant_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_SPEND);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongKind)]
fun pause_open_grant_on_a_policy_grant_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_OPEN);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongKind)]
fun pause_grant_on_a_spend_grant_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    set_kind(&mut scenario, grant_id, KIND_SPEND);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongKind)]
fun resume_open_grant_on_a_policy_grant_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    resume_as(&mut scenario, OWNER, grant_id, KIND_OPEN);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun pause_checks_owner_before_kind() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, STRANGER, grant_id, KIND_SPEND);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongKind)]
fun pause_checks_kind_before_revoked() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    revoke_as(&mut scenario, OWNER, grant_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_OPEN);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ERevoked)]
fun pause_checks_revoked_before_pause_state() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    revoke_as(&mut scenario, OWNER, grant_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    finish(scenario, clock);
}

// === pay failures (order: delegate, pool, zero, revoked, paused, expiry,
// max per payment, session cap, balance) ===

#[test, expected_failure(abort_code = spend_account::spend_account::ENotDelegate)]
fun pay_by_owner_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pay_as(&mut scenario, OWNER, &clock, grant_id, pool_id, 10);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotDelegate)]
fun pay_by_stranger_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pay_as(&mut scenario, STRANGER, &clock, grant_id, pool_id, 10);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongPool)]
fun pay_from_another_pool_fails() {
    let (mut scenario, clock, pool_id) = start();
    let other_pool_id = new_pool(&mut scenario, STRANGER, INITIAL);
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, other_pool_id, 10);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EZeroAmount)]
fun pay_zero_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 0);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ERevoked)]
fun pay_on_revoked_grant_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    revoke_as(&mut scenario, OWNER, grant_id);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 10);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EPaused)]
fun pay_on_paused_grant_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 10);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExpired)]
fun pay_at_expiry_fails() {
    let (mut scenario, mut clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    clock.set_for_testing(EXPIRY_MS);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 10);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsMaxPerPayment)]
fun pay_above_max_per_payment_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, MAX_PER_PAYMENT + 1);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsSessionCap)]
fun pay_above_session_cap_over_several_payments_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 200);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 200);
    // 400 spent; 101 more is within the per-payment limit but not the cap.
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 101);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInsufficientBalance)]
fun pay_more_than_the_pool_holds_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = new_grant(&mut scenario, &clock, pool_id, 5_000, 2_000, 0);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, INITIAL + 1);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInsufficientBalance)]
fun pay_after_the_owner_withdrew_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    withdraw_as(&mut scenario, OWNER, pool_id, INITIAL - 50);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 51);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotDelegate)]
fun pay_checks_delegate_before_pool() {
    let (mut scenario, clock, pool_id) = start();
    let other_pool_id = new_pool(&mut scenario, STRANGER, INITIAL);
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pay_as(&mut scenario, STRANGER, &clock, grant_id, other_pool_id, 10);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongPool)]
fun pay_checks_pool_before_zero_amount() {
    let (mut scenario, clock, pool_id) = start();
    let other_pool_id = new_pool(&mut scenario, STRANGER, INITIAL);
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, other_pool_id, 0);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EZeroAmount)]
fun pay_checks_zero_amount_before_revoked() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    revoke_as(&mut scenario, OWNER, grant_id);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 0);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ERevoked)]
fun pay_checks_revoked_before_paused() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    revoke_as(&mut scenario, OWNER, grant_id);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 10);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EPaused)]
fun pay_checks_paused_before_expiry() {
    let (mut scenario, mut clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    clock.set_for_testing(EXPIRY_MS);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 10);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExpired)]
fun pay_checks_expiry_before_max_per_payment() {
    let (mut scenario, mut clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    clock.set_for_testing(EXPIRY_MS);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, MAX_PER_PAYMENT + 1);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsMaxPerPayment)]
fun pay_checks_max_per_payment_before_session_cap() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, SESSION_CAP + 1);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsSessionCap)]
fun pay_checks_session_cap_before_balance() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = new_grant(&mut scenario, &clock, pool_id, 2_000, 2_000, 0);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 600);
    // Pool holds 400; 1_500 is above both the rest of the cap and the pool.
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 1_500);
    finish(scenario, clock);
}

// === Vectors ===
//
// One test for each row of `packages/local-ledger/test/vectors/Vectors.ts` not
// already covered above under the same name; the executor runs the same rows.

#[test, expected_failure(abort_code = sui::derived_object::EObjectAlreadyExists)]
fun create_pool_twice_for_the_same_owner_and_coin_aborts() {
    let (mut scenario, clock, _) = start();
    new_pool(&mut scenario, OWNER, INITIAL);
    finish(scenario, clock);
}

#[test]
fun create_pool_for_another_coin_type_succeeds() {
    let (mut scenario, clock, pool_id) = start();
    let other = new_pool_of<Wrapper<Y>>(&mut scenario, OWNER, 5);
    assert!(other != pool_id);
    finish(scenario, clock);
}

#[test, expected_failure(arithmetic_error, location = sui::balance)]
fun deposit_overflowing_the_pool_balance_aborts() {
    let mut scenario = publish();
    let clock = clock::create_for_testing(scenario.ctx());
    let pool_id = new_pool(&mut scenario, OWNER, U64_MAX);
    deposit_as(&mut scenario, OWNER, pool_id, 1);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun withdraw_on_an_old_version_pool_fails() {
    let (mut scenario, clock, pool_id) = start();
    set_pool_version(&mut scenario, pool_id, 0);
    withdraw_as(&mut scenario, OWNER, pool_id, 1);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENonceUsed)]
fun create_policy_grant_twice_with_one_nonce_aborts() {
    let (mut scenario, clock, pool_id) = start();
    vector_grant<SUI>(&mut scenario, OWNER, &clock, pool_id);
    vector_grant<SUI>(&mut scenario, OWNER, &clock, pool_id);
    finish(scenario, clock);
}

#[test]
fun create_policy_grant_with_another_nonce_succeeds() {
    let (mut scenario, clock, pool_id) = start();
    let first = vector_grant_id(&mut scenario, &clock, pool_id);
    create_grant_with<SUI>(&mut scenario, OWNER, &clock, pool_id, b"g_0002", DEADLINE_MS, SESSION_CAP, MAX_PER_PAYMENT, EXPIRY_MS);
    scenario.next_tx(OWNER);
    let second = ts::most_recent_id_shared<Grant>().destroy_some();
    assert!(first != second);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EDeadlinePassed)]
fun create_policy_grant_after_its_deadline_aborts() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(DEADLINE_MS + 1);
    vector_grant<SUI>(&mut scenario, OWNER, &clock, pool_id);
    finish(scenario, clock);
}

#[test]
fun create_policy_grant_at_its_deadline_succeeds() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(DEADLINE_MS);
    let grant_id = vector_grant_id(&mut scenario, &clock, pool_id);
    let (spent, paused, revoked) = grant_state(&mut scenario, grant_id);
    assert!(spent == 0 && !paused && !revoked);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EDeadlinePassed)]
fun create_policy_grant_checks_deadline_before_nonce() {
    let (mut scenario, mut clock, pool_id) = start();
    vector_grant<SUI>(&mut scenario, OWNER, &clock, pool_id);
    clock.set_for_testing(6_000);
    vector_grant<SUI>(&mut scenario, OWNER, &clock, pool_id);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENonceUsed)]
fun create_policy_grant_checks_nonce_before_caps() {
    let (mut scenario, clock, pool_id) = start();
    vector_grant<SUI>(&mut scenario, OWNER, &clock, pool_id);
    create_grant_with<SUI>(&mut scenario, OWNER, &clock, pool_id, NONCE, DEADLINE_MS, SESSION_CAP, 0, EXPIRY_MS);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun create_policy_grant_on_an_old_version_pool_fails() {
    let (mut scenario, clock, pool_id) = start();
    set_pool_version(&mut scenario, pool_id, 0);
    vector_grant<SUI>(&mut scenario, OWNER, &clock, pool_id);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun create_policy_grant_checks_version_before_owner() {
    let (mut scenario, clock, pool_id) = start();
    set_pool_version(&mut scenario, pool_id, 0);
    vector_grant<SUI>(&mut scenario, STRANGER, &clock, pool_id);
    finish(scenario, clock);
}

#[test]
fun create_policy_grant_of_a_generic_coin_names_its_type() {
    let mut scenario = publish();
    let clock = clock::create_for_testing(scenario.ctx());
    let pool_id = new_pool_of<Wrapper<Y>>(&mut scenario, OWNER, INITIAL);
    vector_grant<Wrapper<Y>>(&mut scenario, OWNER, &clock, pool_id);
    let events = event::events_by_type<sa::GrantCreated>();
    scenario.next_tx(OWNER);
    let grant_id = ts::most_recent_id_shared<Grant>().destroy_some();
    let expected = sa::grant_created_for_testing(
        grant_id,
        NONCE,
        pool_id,
        OWNER,
        DELEGATE,
        type_name::with_defining_ids<Wrapper<Y>>().into_string(),
        SESSION_CAP,
        MAX_PER_PAYMENT,
        EXPIRY_MS,
        vector[7, 8],
    );
    assert!(events[events.length() - 1] == expected);
    finish(scenario, clock);
}

#[test]
fun migrate_pool_then_create_policy_grant_succeeds() {
    let (mut scenario, clock, pool_id) = start();
    set_pool_version(&mut scenario, pool_id, 0);
    migrate_pool_as(&mut scenario, OWNER, pool_id);
    vector_grant_id(&mut scenario, &clock, pool_id);
    scenario.next_tx(OWNER);
    let pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    assert!(pool.pool_version() == 1);
    ts::return_shared(pool);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotUpgrade)]
fun migrate_pool_at_the_current_version_fails() {
    let (mut scenario, clock, pool_id) = start();
    migrate_pool_as(&mut scenario, OWNER, pool_id);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun migrate_pool_by_non_owner_fails() {
    let (mut scenario, clock, pool_id) = start();
    set_pool_version(&mut scenario, pool_id, 0);
    migrate_pool_as(&mut scenario, STRANGER, pool_id);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotUpgrade)]
fun migrate_grant_at_the_current_version_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = vector_grant_id(&mut scenario, &clock, pool_id);
    migrate_grant_as(&mut scenario, OWNER, grant_id);
    finish(scenario, clock);
}

#[test]
fun migrate_grant_then_pause_grant_succeeds() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = vector_grant_id(&mut scenario, &clock, pool_id);
    set_grant_version(&mut scenario, grant_id, 0);
    migrate_grant_as(&mut scenario, OWNER, grant_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    let (_, paused, _) = grant_state(&mut scenario, grant_id);
    assert!(paused);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun revoke_grant_on_an_old_version_grant_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = vector_grant_id(&mut scenario, &clock, pool_id);
    set_grant_version(&mut scenario, grant_id, 0);
    revoke_as(&mut scenario, OWNER, grant_id);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun pause_grant_on_an_old_version_grant_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = vector_grant_id(&mut scenario, &clock, pool_id);
    set_grant_version(&mut scenario, grant_id, 0);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EPaused)]
fun pay_when_paused_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = vector_grant_id(&mut scenario, &clock, pool_id);
    pause_as(&mut scenario, OWNER, grant_id, KIND_POLICY);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 1);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ERevoked)]
fun pay_when_revoked_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = vector_grant_id(&mut scenario, &clock, pool_id);
    revoke_as(&mut scenario, OWNER, grant_id);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 1);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsSessionCap)]
fun pay_above_the_session_cap_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = vector_grant_id(&mut scenario, &clock, pool_id);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 200);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 200);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 101);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInsufficientBalance)]
fun pay_above_the_pool_balance_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = vector_grant_id(&mut scenario, &clock, pool_id);
    withdraw_as(&mut scenario, OWNER, pool_id, 950);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 51);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun pay_on_an_old_version_grant_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = vector_grant_id(&mut scenario, &clock, pool_id);
    set_grant_version(&mut scenario, grant_id, 0);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 1);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun pay_on_an_old_version_pool_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = vector_grant_id(&mut scenario, &clock, pool_id);
    set_pool_version(&mut scenario, pool_id, 0);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 1);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun pay_checks_versions_before_delegate() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = vector_grant_id(&mut scenario, &clock, pool_id);
    set_pool_version(&mut scenario, pool_id, 0);
    pay_as(&mut scenario, STRANGER, &clock, grant_id, pool_id, 1);
    finish(scenario, clock);
}
