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
const ADMIN: address = @0xAD;

/// What the pool is funded with at the start of every test.
const INITIAL: u64 = 1_000;
/// Limits of the default grant.
const SESSION_CAP: u64 = 500;
const MAX_PER_PAYMENT: u64 = 200;
const EXPIRY_MS: u64 = 10_000;

/// A deadline no test's clock reaches, for the tests that are not about deadlines.
const NO_DEADLINE: u64 = 18_446_744_073_709_551_615;

const KIND_POLICY: u8 = 0;
const KIND_SPEND: u8 = 1;
const KIND_OPEN: u8 = 2;

/// Stand-ins for the vectors' coin types (`packages/local-ledger/test/vectors/Vectors.ts`):
/// `Wrapper<Y>` for `WRAPPED_COIN`, a generic one whose `type_name` names its
/// argument too, and `BIG` for `BIG_COIN`, a coin that is not SUI.
public struct Wrapper<phantom T> has drop {}
public struct Y has drop {}
public struct BIG has drop {}

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

fun set_grant_version(scenario: &mut Scenario, grant_id: ID, version: u64) {
    scenario.next_tx(OWNER);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::set_grant_version_for_testing(&mut grant, version);
    ts::return_shared(grant);
}

fun migrate_grant_as(scenario: &mut Scenario, sender: address, grant_id: ID) {
    scenario.next_tx(sender);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::migrate_grant(&mut grant, scenario.ctx());
    ts::return_shared(grant);
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

// === Any coin type ===
//
// The helpers above take `Pool<SUI>`; the vectors use other coin types too.

/// Create a pool of `amount` of `T` as `sender`, leaving its transaction open.
fun create_pool_of<T>(scenario: &mut Scenario, sender: address, amount: u64) {
    scenario.next_tx(sender);
    let mut registry = scenario.take_shared<Registry>();
    let coin = mint_for_testing<T>(amount, scenario.ctx());
    sa::create_pool(&mut registry, coin, scenario.ctx());
    ts::return_shared(registry);
}

fun deposit_of<T>(scenario: &mut Scenario, sender: address, pool_id: ID, amount: u64) {
    scenario.next_tx(sender);
    let mut pool = scenario.take_shared_by_id<Pool<T>>(pool_id);
    let coin = mint_for_testing<T>(amount, scenario.ctx());
    sa::deposit(&mut pool, coin, scenario.ctx());
    ts::return_shared(pool);
}

fun withdraw_of<T>(scenario: &mut Scenario, sender: address, pool_id: ID, amount: u64) {
    scenario.next_tx(sender);
    let mut pool = scenario.take_shared_by_id<Pool<T>>(pool_id);
    sa::withdraw(&mut pool, amount, scenario.ctx());
    ts::return_shared(pool);
}

fun pay_of<T>(
    scenario: &mut Scenario,
    sender: address,
    clock: &Clock,
    grant_id: ID,
    pool_id: ID,
    amount: u64,
) {
    scenario.next_tx(sender);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    let mut pool = scenario.take_shared_by_id<Pool<T>>(pool_id);
    sa::pay(&mut grant, &mut pool, amount, RECIPIENT, b"invoice-1", clock, scenario.ctx());
    ts::return_shared(grant);
    ts::return_shared(pool);
}

/// Leave the pool as an older package version would have: its `version` below this one's.
fun set_pool_version_of<T>(scenario: &mut Scenario, pool_id: ID, version: u64) {
    scenario.next_tx(OWNER);
    let mut pool = scenario.take_shared_by_id<Pool<T>>(pool_id);
    sa::set_pool_version_for_testing(&mut pool, version);
    ts::return_shared(pool);
}

fun migrate_pool_of<T>(scenario: &mut Scenario, sender: address, pool_id: ID) {
    scenario.next_tx(sender);
    let mut pool = scenario.take_shared_by_id<Pool<T>>(pool_id);
    sa::migrate_pool(&mut pool, scenario.ctx());
    ts::return_shared(pool);
}

// === Vector steps ===
//
// The generated tests at the end of this file play the rows of
// `packages/local-ledger/test/vectors/Vectors.ts` with these helpers: one
// `step_*` for each kind of step, taking every field of the step, and acting
// as `VectorRunner` does on the pool the last `step_create_pool` created and
// the grant the last `step_create_grant` created; and one `expect_*` for each
// event a row can expect its call to emit.

/// A row's ledger: the scenario, the Clock, the pool and grant the steps act
/// on, and what the last step's transaction emitted (for the row's outcome).
public struct VectorRun {
    scenario: Scenario,
    clock: Clock,
    pool_id: Option<ID>,
    grant_id: Option<ID>,
    num_events: u64,
    pool_created: vector<sa::PoolCreated>,
    deposited: vector<sa::Deposited>,
    grant_created: vector<sa::GrantCreated>,
    grant_revoked: vector<sa::GrantRevoked>,
    grant_pause_set: vector<sa::GrantPauseSet>,
    payment_made: vector<sa::PaymentMade>,
}

/// The package published and the Clock at `clock_ms`, where a row's `World` starts.
fun run_begin(clock_ms: u64): VectorRun {
    let mut scenario = publish();
    let mut clock = clock::create_for_testing(scenario.ctx());
    clock.set_for_testing(clock_ms);
    VectorRun {
        scenario,
        clock,
        pool_id: option::none(),
        grant_id: option::none(),
        num_events: 0,
        pool_created: vector[],
        deposited: vector[],
        grant_created: vector[],
        grant_revoked: vector[],
        grant_pause_set: vector[],
        payment_made: vector[],
    }
}

fun run_end(run: VectorRun) {
    let VectorRun {
        scenario,
        clock,
        pool_id: _,
        grant_id: _,
        num_events: _,
        pool_created: _,
        deposited: _,
        grant_created: _,
        grant_revoked: _,
        grant_pause_set: _,
        payment_made: _,
    } = run;
    finish(scenario, clock);
}

fun pool_of(run: &VectorRun): ID {
    *run.pool_id.borrow()
}

fun grant_of(run: &VectorRun): ID {
    *run.grant_id.borrow()
}

/// End the step's transaction, keeping what it emitted: the events are only
/// readable until the transaction ends.
fun end_step(run: &mut VectorRun) {
    run.pool_created = event::events_by_type<sa::PoolCreated>();
    run.deposited = event::events_by_type<sa::Deposited>();
    run.grant_created = event::events_by_type<sa::GrantCreated>();
    run.grant_revoked = event::events_by_type<sa::GrantRevoked>();
    run.grant_pause_set = event::events_by_type<sa::GrantPauseSet>();
    run.payment_made = event::events_by_type<sa::PaymentMade>();
    let effects = run.scenario.next_tx(OWNER);
    run.num_events = effects.num_user_events();
}

fun step_create_pool<T>(run: &mut VectorRun, sender: address, amount: u64) {
    create_pool_of<T>(&mut run.scenario, sender, amount);
    end_step(run);
    run.pool_id = ts::most_recent_id_shared<Pool<T>>();
}

fun step_deposit<T>(run: &mut VectorRun, sender: address, amount: u64) {
    let pool_id = pool_of(run);
    deposit_of<T>(&mut run.scenario, sender, pool_id, amount);
    end_step(run);
}

fun step_withdraw<T>(run: &mut VectorRun, sender: address, amount: u64) {
    let pool_id = pool_of(run);
    withdraw_of<T>(&mut run.scenario, sender, pool_id, amount);
    end_step(run);
}

fun step_create_grant<T>(
    run: &mut VectorRun,
    sender: address,
    nonce: vector<u8>,
    deadline_ms: u64,
    session_cap: u64,
    max_per_payment: u64,
    expiry_ms: u64,
) {
    let pool_id = pool_of(run);
    create_grant_with<T>(
        &mut run.scenario,
        sender,
        &run.clock,
        pool_id,
        nonce,
        deadline_ms,
        session_cap,
        max_per_payment,
        expiry_ms,
    );
    end_step(run);
    run.grant_id = ts::most_recent_id_shared<Grant>();
}

fun step_pay<T>(run: &mut VectorRun, sender: address, amount: u64) {
    let grant_id = grant_of(run);
    let pool_id = pool_of(run);
    pay_of<T>(&mut run.scenario, sender, &run.clock, grant_id, pool_id, amount);
    end_step(run);
}

fun step_pause(run: &mut VectorRun, sender: address, kind: u8) {
    let grant_id = grant_of(run);
    pause_as(&mut run.scenario, sender, grant_id, kind);
    end_step(run);
}

fun step_resume(run: &mut VectorRun, sender: address, kind: u8) {
    let grant_id = grant_of(run);
    resume_as(&mut run.scenario, sender, grant_id, kind);
    end_step(run);
}

fun step_revoke(run: &mut VectorRun, sender: address) {
    let grant_id = grant_of(run);
    revoke_as(&mut run.scenario, sender, grant_id);
    end_step(run);
}

fun step_migrate_pool<T>(run: &mut VectorRun, sender: address) {
    let pool_id = pool_of(run);
    migrate_pool_of<T>(&mut run.scenario, sender, pool_id);
    end_step(run);
}

fun step_migrate_grant(run: &mut VectorRun, sender: address) {
    let grant_id = grant_of(run);
    migrate_grant_as(&mut run.scenario, sender, grant_id);
    end_step(run);
}

/// A state edit, not a call (as in the vectors): nothing to keep of it.
fun step_pool_version<T>(run: &mut VectorRun, version: u64) {
    let pool_id = pool_of(run);
    set_pool_version_of<T>(&mut run.scenario, pool_id, version);
}

/// A state edit, not a call (as in the vectors): nothing to keep of it.
fun step_grant_version(run: &mut VectorRun, version: u64) {
    let grant_id = grant_of(run);
    set_grant_version(&mut run.scenario, grant_id, version);
}

/// Move the Clock on (`set_for_testing` aborts if it would go back).
fun step_clock(run: &mut VectorRun, ms: u64) {
    run.clock.set_for_testing(ms);
}

#[allow(unused_function)]
/// The call emitted no event (a row expecting `{ ok: null }`; none does today).
fun expect_no_event(run: &VectorRun) {
    assert!(run.num_events == 0);
}

/// The call emitted one event, `PoolCreated` for the pool it created, which
/// `owner` owns and which holds `amount`.
fun expect_pool_created<T>(run: &VectorRun, owner: address, amount: u64) {
    let pool_id = pool_of(run);
    let expected = sa::pool_created_for_testing(
        pool_id,
        owner,
        type_name::with_defining_ids<T>().into_string(),
    );
    assert!(run.num_events == 1);
    assert!(run.pool_created == vector[expected]);
    let pool = run.scenario.take_shared_by_id<Pool<T>>(pool_id);
    assert!(pool.pool_owner() == owner);
    assert!(pool.pool_value() == amount);
    assert!(pool.pool_version() == 1);
    ts::return_shared(pool);
}

/// The call emitted one event, `Deposited` of `amount`, and the pool holds `pool_value`.
fun expect_deposited<T>(run: &VectorRun, amount: u64, pool_value: u64) {
    let pool_id = pool_of(run);
    assert!(run.num_events == 1);
    assert!(run.deposited == vector[sa::deposited_for_testing(pool_id, amount)]);
    let pool = run.scenario.take_shared_by_id<Pool<T>>(pool_id);
    assert!(pool.pool_value() == pool_value);
    ts::return_shared(pool);
}

/// The call emitted one event, `GrantCreated` for the grant it created on the
/// pool, with these limits, naming `T`; the grant holds what the event says.
fun expect_grant_created<T>(
    run: &VectorRun,
    nonce: vector<u8>,
    session_cap: u64,
    max_per_payment: u64,
    expiry_ms: u64,
) {
    let pool_id = pool_of(run);
    let grant_id = grant_of(run);
    let expected = sa::grant_created_for_testing(
        grant_id,
        nonce,
        pool_id,
        OWNER,
        DELEGATE,
        type_name::with_defining_ids<T>().into_string(),
        session_cap,
        max_per_payment,
        expiry_ms,
        vector[7, 8],
    );
    assert!(run.num_events == 1);
    assert!(run.grant_created == vector[expected]);
    let grant = run.scenario.take_shared_by_id<Grant>(grant_id);
    assert!(grant.grant_pool_id() == pool_id);
    assert!(grant.grant_owner() == OWNER);
    assert!(grant.grant_delegate() == DELEGATE);
    assert!(grant.grant_session_cap() == session_cap);
    assert!(grant.grant_spent() == 0);
    assert!(grant.grant_max_per_payment() == max_per_payment);
    assert!(grant.grant_expiry_ms() == expiry_ms);
    assert!(!grant.grant_paused());
    assert!(!grant.grant_revoked());
    assert!(grant.grant_policy_ids() == vector[7, 8]);
    assert!(grant.grant_kind() == KIND_POLICY);
    assert!(grant.grant_version() == 1);
    ts::return_shared(grant);
}

/// The call emitted one event, `GrantRevoked` for the grant, which is revoked.
fun expect_grant_revoked(run: &VectorRun) {
    let grant_id = grant_of(run);
    let grant = run.scenario.take_shared_by_id<Grant>(grant_id);
    let expected = sa::grant_revoked_for_testing(grant_id, grant.grant_pool_id(), OWNER);
    assert!(run.num_events == 1);
    assert!(run.grant_revoked == vector[expected]);
    assert!(grant.grant_revoked());
    ts::return_shared(grant);
}

/// The call emitted one event, `GrantPauseSet` to `paused` for the grant, which is so.
fun expect_grant_pause_set(run: &VectorRun, paused: bool) {
    let grant_id = grant_of(run);
    let grant = run.scenario.take_shared_by_id<Grant>(grant_id);
    let expected = sa::grant_pause_set_for_testing(grant_id, grant.grant_pool_id(), OWNER, paused);
    assert!(run.num_events == 1);
    assert!(run.grant_pause_set == vector[expected]);
    assert!(grant.grant_paused() == paused);
    ts::return_shared(grant);
}

/// The call emitted one event, `PaymentMade` of `amount` (`spent` in all), the
/// grant has spent `spent`, the pool holds `pool_value` and the recipient got
/// a coin of `amount`.
fun expect_payment_made<T>(run: &VectorRun, amount: u64, spent: u64, pool_value: u64) {
    let grant_id = grant_of(run);
    let pool_id = pool_of(run);
    let expected = sa::payment_made_for_testing(
        grant_id,
        pool_id,
        DELEGATE,
        RECIPIENT,
        amount,
        spent,
        b"invoice-1",
    );
    assert!(run.num_events == 1);
    assert!(run.payment_made == vector[expected]);
    let grant = run.scenario.take_shared_by_id<Grant>(grant_id);
    assert!(grant.grant_spent() == spent);
    ts::return_shared(grant);
    let pool = run.scenario.take_shared_by_id<Pool<T>>(pool_id);
    assert!(pool.pool_value() == pool_value);
    ts::return_shared(pool);
    let coin = run.scenario.take_from_address<Coin<T>>(RECIPIENT);
    assert!(coin.value() == amount);
    coin.burn_for_testing();
}

// === Happy paths ===

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

// The vector row `pay_sends_coins_and_accumulates_spent` pays once; this pays
// twice: the second `PaymentMade` carries the running `spent`, and both coins arrive.
#[test]
fun pay_twice_accumulates_spent() {
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
fun withdraw_by_delegate_fails() {
    let (mut scenario, clock, pool_id) = start();
    default_grant(&mut scenario, &clock, pool_id);
    withdraw_as(&mut scenario, DELEGATE, pool_id, 10);
    finish(scenario, clock);
}

// === create_policy_grant failures (order: owner, caps, expiry) ===

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

// === Generated from packages/local-ledger/test/vectors/Vectors.ts by npm run move-vectors: do not edit ===
//
// One test for each row of the vector table, which the executor runs too:
// the row's steps played with the `step_*` helpers above, from the Clock a
// row's `World` starts at, and its outcome (an `expected_failure`, or an
// `expect_*` check of the one event the call emitted).

#[test]
fun create_pool_shares_a_funded_pool_owned_by_the_sender() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    expect_pool_created<SUI>(&run, OWNER, 1_000);
    run_end(run);
}

#[test, expected_failure(abort_code = sui::derived_object::EObjectAlreadyExists)]
fun create_pool_twice_for_the_same_owner_and_coin_aborts() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    run_end(run);
}

#[test]
fun create_pool_for_another_coin_type_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_pool<Wrapper<Y>>(&mut run, OWNER, 5);
    expect_pool_created<Wrapper<Y>>(&run, OWNER, 5);
    run_end(run);
}

#[test]
fun deposit_adds_to_the_pool() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_deposit<SUI>(&mut run, OWNER, 50);
    expect_deposited<SUI>(&run, 50, 1_050);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun deposit_by_non_owner_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_deposit<SUI>(&mut run, STRANGER, 50);
    run_end(run);
}

#[test, expected_failure(arithmetic_error, location = sui::balance)]
fun deposit_overflowing_the_pool_balance_aborts() {
    let mut run = run_begin(1_000);
    step_create_pool<BIG>(&mut run, OWNER, 18_446_744_073_709_551_615);
    step_deposit<BIG>(&mut run, OWNER, 1);
    run_end(run);
}

#[test]
fun withdraw_returns_the_coin_to_the_transaction() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_withdraw<SUI>(&mut run, OWNER, 300);
    expect_no_event(&run);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInsufficientBalance)]
fun withdraw_more_than_the_balance_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_withdraw<SUI>(&mut run, OWNER, 1_001);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun withdraw_by_non_owner_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_withdraw<SUI>(&mut run, STRANGER, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun withdraw_on_an_old_version_pool_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_pool_version<SUI>(&mut run, 0);
    step_withdraw<SUI>(&mut run, OWNER, 1);
    run_end(run);
}

#[test]
fun create_policy_grant_shares_a_grant_for_the_delegate() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    expect_grant_created<SUI>(&run, b"g_0001", 500, 200, 10_000, 0, 0, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENonceUsed)]
fun create_policy_grant_twice_with_one_nonce_aborts() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    run_end(run);
}

#[test]
fun create_policy_grant_with_another_nonce_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0002", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    expect_grant_created<SUI>(&run, b"g_0002", 500, 200, 10_000, 0, 0, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EDeadlinePassed)]
fun create_policy_grant_after_its_deadline_aborts() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_clock(&mut run, 5_001);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    run_end(run);
}

#[test]
fun create_policy_grant_at_its_deadline_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_clock(&mut run, 5_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    expect_grant_created<SUI>(&run, b"g_0001", 500, 200, 10_000, 0, 0, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun create_policy_grant_by_non_owner_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, STRANGER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EDeadlinePassed)]
fun create_policy_grant_checks_deadline_before_nonce() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_clock(&mut run, 6_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENonceUsed)]
fun create_policy_grant_checks_nonce_before_caps() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 0, 10_000, 0, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInvalidCaps)]
fun create_policy_grant_with_zero_max_per_payment_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 0, 10_000, 0, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExpired)]
fun create_policy_grant_with_expiry_now_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 1_000, 0, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun create_policy_grant_on_an_old_version_pool_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_pool_version<SUI>(&mut run, 0);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun create_policy_grant_checks_version_before_owner() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_pool_version<SUI>(&mut run, 0);
    step_create_grant<SUI>(&mut run, STRANGER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    run_end(run);
}

#[test]
fun create_policy_grant_of_a_generic_coin_names_its_type() {
    let mut run = run_begin(1_000);
    step_create_pool<Wrapper<Y>>(&mut run, OWNER, 1_000);
    step_create_grant<Wrapper<Y>>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    expect_grant_created<Wrapper<Y>>(&run, b"g_0001", 500, 200, 10_000, 0, 0, 0, 0, vector[]);
    run_end(run);
}

#[test]
fun migrate_pool_then_create_policy_grant_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_pool_version<SUI>(&mut run, 0);
    step_migrate_pool<SUI>(&mut run, OWNER);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    expect_grant_created<SUI>(&run, b"g_0001", 500, 200, 10_000, 0, 0, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotUpgrade)]
fun migrate_pool_at_the_current_version_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_migrate_pool<SUI>(&mut run, OWNER);
    run_end(run);
}

#[test]
fun migrate_pool_by_anyone_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_pool_version<SUI>(&mut run, 0);
    step_migrate_pool<SUI>(&mut run, STRANGER);
    expect_no_event(&run);
    run_end(run);
}

#[test]
fun migrate_grant_by_anyone_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_grant_version(&mut run, 0);
    step_migrate_grant(&mut run, STRANGER);
    expect_no_event(&run);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun migrate_pool_before_the_registry_is_at_this_version_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_pool_version<SUI>(&mut run, 0);
    step_registry_version(&mut run, 0);
    step_migrate_pool<SUI>(&mut run, OWNER);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotUpgrade)]
fun migrate_grant_at_the_current_version_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_migrate_grant(&mut run, OWNER);
    run_end(run);
}

#[test]
fun migrate_grant_then_pause_grant_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_grant_version(&mut run, 0);
    step_migrate_grant(&mut run, OWNER);
    step_pause(&mut run, OWNER, KIND_POLICY);
    expect_grant_pause_set(&run, true);
    run_end(run);
}

#[test]
fun revoke_grant_marks_the_grant_revoked() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_revoke(&mut run, OWNER);
    expect_grant_revoked(&run);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EAlreadyRevoked)]
fun revoke_grant_twice_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_revoke(&mut run, OWNER);
    step_revoke(&mut run, OWNER);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun revoke_grant_on_an_old_version_grant_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_grant_version(&mut run, 0);
    step_revoke(&mut run, OWNER);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EAlreadyPaused)]
fun pause_grant_twice_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_pause(&mut run, OWNER, KIND_POLICY);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotPaused)]
fun resume_grant_when_not_paused_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_resume(&mut run, OWNER, KIND_POLICY);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongKind)]
fun pause_spend_grant_on_a_policy_grant_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_pause(&mut run, OWNER, KIND_SPEND);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun pause_grant_on_an_old_version_grant_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_grant_version(&mut run, 0);
    step_pause(&mut run, OWNER, KIND_POLICY);
    run_end(run);
}

#[test]
fun pay_sends_coins_and_accumulates_spent() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    expect_payment_made<SUI>(&run, RECIPIENT, 200, 200, 0, 800);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotDelegate)]
fun pay_by_owner_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_pay<SUI>(&mut run, OWNER, RECIPIENT, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EZeroAmount)]
fun pay_zero_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 0);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EPaused)]
fun pay_when_paused_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ERevoked)]
fun pay_when_revoked_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_revoke(&mut run, OWNER);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExpired)]
fun pay_at_expiry_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_clock(&mut run, 10_000);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsMaxPerPayment)]
fun pay_above_max_per_payment_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 201);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsSessionCap)]
fun pay_above_the_session_cap_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 101);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInsufficientBalance)]
fun pay_above_the_pool_balance_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_withdraw<SUI>(&mut run, OWNER, 950);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 51);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun pay_on_an_old_version_grant_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_grant_version(&mut run, 0);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun pay_on_an_old_version_pool_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_pool_version<SUI>(&mut run, 0);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun pay_after_a_newer_package_set_its_version_aborts() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_registry_version(&mut run, 2);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun create_pool_after_a_newer_package_set_its_version_aborts() {
    let mut run = run_begin(1_000);
    step_registry_version(&mut run, 2);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun create_policy_grant_after_a_newer_package_set_its_version_aborts() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_registry_version(&mut run, 2);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun deposit_after_a_newer_package_set_its_version_aborts() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_registry_version(&mut run, 2);
    step_deposit<SUI>(&mut run, OWNER, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun revoke_grant_after_a_newer_package_set_its_version_aborts() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_registry_version(&mut run, 2);
    step_revoke(&mut run, OWNER);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun pause_grant_after_a_newer_package_set_its_version_aborts() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_registry_version(&mut run, 2);
    step_pause(&mut run, OWNER, KIND_POLICY);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun pay_before_set_version_on_an_older_registry_aborts() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_registry_version(&mut run, 0);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 1);
    run_end(run);
}

#[test]
fun set_version_moves_an_older_registry_to_this_version() {
    let mut run = run_begin(1_000);
    step_registry_version(&mut run, 0);
    step_set_version(&mut run, ADMIN);
    expect_version_set(&run, 1);
    run_end(run);
}

#[test]
fun pay_after_set_version_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_registry_version(&mut run, 0);
    step_set_version(&mut run, ADMIN);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 100);
    expect_payment_made<SUI>(&run, RECIPIENT, 100, 100, 0, 900);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotUpgrade)]
fun set_version_at_this_version_fails() {
    let mut run = run_begin(1_000);
    step_set_version(&mut run, ADMIN);
    run_end(run);
}

#[test]
fun create_policy_grant_with_a_window_shares_it_open() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    expect_grant_created<SUI>(&run, b"g_0001", 500, 200, 0, 1, 60_000, 300, 1_000, vector[]);
    run_end(run);
}

#[test]
fun create_policy_grant_with_a_monthly_window_starts_it_at_the_month() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 2, 0, 300, vector[]);
    expect_grant_created<SUI>(&run, b"g_0001", 500, 200, 0, 2, 0, 300, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInvalidWindow)]
fun create_policy_grant_with_a_period_under_a_minute_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 1, 59_999, 300, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInvalidWindow)]
fun create_policy_grant_with_a_window_of_no_limit_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 2, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInvalidWindow)]
fun create_policy_grant_with_an_unknown_window_kind_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 3, 0, 300, vector[]);
    run_end(run);
}

#[test]
fun pay_within_the_window_limit_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 100);
    expect_payment_made<SUI>(&run, RECIPIENT, 100, 300, 300, 700);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsWindowLimit)]
fun pay_above_the_window_limit_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 101);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsWindowLimit)]
fun pay_at_the_end_of_the_window_is_still_held_to_it() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    step_clock(&mut run, 60_999);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 101);
    run_end(run);
}

#[test]
fun pay_in_the_next_window_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 100);
    step_clock(&mut run, 61_000);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    expect_payment_made<SUI>(&run, RECIPIENT, 200, 500, 200, 500);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsSessionCap)]
fun pay_in_the_next_window_is_still_held_to_the_session_cap() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 100);
    step_clock(&mut run, 61_000);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsWindowLimit)]
fun pay_before_the_month_boundary_is_held_to_the_monthly_limit() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 2, 0, 300, vector[]);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 100);
    step_clock(&mut run, 2_678_399_999);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 1);
    run_end(run);
}

#[test]
fun pay_after_the_month_boundary_in_utc_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 2, 0, 300, vector[]);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 100);
    step_clock(&mut run, 2_678_400_000);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    expect_payment_made<SUI>(&run, RECIPIENT, 200, 500, 200, 500);
    run_end(run);
}

#[test]
fun pay_to_a_listed_recipient_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[RECIPIENT, @0x0000000000000000000000000000000000000000000000000000000000000b0b]);
    step_pay<SUI>(&mut run, DELEGATE, @0x0000000000000000000000000000000000000000000000000000000000000b0b, 10);
    expect_payment_made<SUI>(&run, @0x0000000000000000000000000000000000000000000000000000000000000b0b, 10, 10, 0, 990);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ERecipientNotAllowed)]
fun pay_to_a_recipient_not_on_the_list_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[RECIPIENT, @0x0000000000000000000000000000000000000000000000000000000000000b0b]);
    step_pay<SUI>(&mut run, DELEGATE, STRANGER, 10);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ERecipientNotAllowed)]
fun pay_checks_the_recipient_before_the_limits() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[RECIPIENT, @0x0000000000000000000000000000000000000000000000000000000000000b0b]);
    step_pay<SUI>(&mut run, DELEGATE, STRANGER, 201);
    run_end(run);
}

#[test]
fun create_policy_grant_with_sixteen_recipients_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[@0x000000000000000000000000000000000000000000000000000000000000c000, @0x000000000000000000000000000000000000000000000000000000000000c001, @0x000000000000000000000000000000000000000000000000000000000000c002, @0x000000000000000000000000000000000000000000000000000000000000c003, @0x000000000000000000000000000000000000000000000000000000000000c004, @0x000000000000000000000000000000000000000000000000000000000000c005, @0x000000000000000000000000000000000000000000000000000000000000c006, @0x000000000000000000000000000000000000000000000000000000000000c007, @0x000000000000000000000000000000000000000000000000000000000000c008, @0x000000000000000000000000000000000000000000000000000000000000c009, @0x000000000000000000000000000000000000000000000000000000000000c00a, @0x000000000000000000000000000000000000000000000000000000000000c00b, @0x000000000000000000000000000000000000000000000000000000000000c00c, @0x000000000000000000000000000000000000000000000000000000000000c00d, @0x000000000000000000000000000000000000000000000000000000000000c00e, @0x000000000000000000000000000000000000000000000000000000000000c00f]);
    expect_grant_created<SUI>(&run, b"g_0001", 500, 200, 10_000, 0, 0, 0, 0, vector[@0x000000000000000000000000000000000000000000000000000000000000c000, @0x000000000000000000000000000000000000000000000000000000000000c001, @0x000000000000000000000000000000000000000000000000000000000000c002, @0x000000000000000000000000000000000000000000000000000000000000c003, @0x000000000000000000000000000000000000000000000000000000000000c004, @0x000000000000000000000000000000000000000000000000000000000000c005, @0x000000000000000000000000000000000000000000000000000000000000c006, @0x000000000000000000000000000000000000000000000000000000000000c007, @0x000000000000000000000000000000000000000000000000000000000000c008, @0x000000000000000000000000000000000000000000000000000000000000c009, @0x000000000000000000000000000000000000000000000000000000000000c00a, @0x000000000000000000000000000000000000000000000000000000000000c00b, @0x000000000000000000000000000000000000000000000000000000000000c00c, @0x000000000000000000000000000000000000000000000000000000000000c00d, @0x000000000000000000000000000000000000000000000000000000000000c00e, @0x000000000000000000000000000000000000000000000000000000000000c00f]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ETooManyRecipients)]
fun create_policy_grant_with_seventeen_recipients_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[@0x000000000000000000000000000000000000000000000000000000000000c000, @0x000000000000000000000000000000000000000000000000000000000000c001, @0x000000000000000000000000000000000000000000000000000000000000c002, @0x000000000000000000000000000000000000000000000000000000000000c003, @0x000000000000000000000000000000000000000000000000000000000000c004, @0x000000000000000000000000000000000000000000000000000000000000c005, @0x000000000000000000000000000000000000000000000000000000000000c006, @0x000000000000000000000000000000000000000000000000000000000000c007, @0x000000000000000000000000000000000000000000000000000000000000c008, @0x000000000000000000000000000000000000000000000000000000000000c009, @0x000000000000000000000000000000000000000000000000000000000000c00a, @0x000000000000000000000000000000000000000000000000000000000000c00b, @0x000000000000000000000000000000000000000000000000000000000000c00c, @0x000000000000000000000000000000000000000000000000000000000000c00d, @0x000000000000000000000000000000000000000000000000000000000000c00e, @0x000000000000000000000000000000000000000000000000000000000000c00f, @0x000000000000000000000000000000000000000000000000000000000000c010]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EDeadlineTooFar)]
fun create_policy_grant_with_a_deadline_over_a_week_away_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 604_801_001, 500, 200, 10_000, 0, 0, 0, vector[]);
    run_end(run);
}

#[test]
fun create_policy_grant_with_a_deadline_a_week_away_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 604_801_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    expect_grant_created<SUI>(&run, b"g_0001", 500, 200, 10_000, 0, 0, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENonceLive)]
fun forget_nonce_before_its_deadline_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_forget_nonce<SUI>(&mut run, STRANGER, b"g_0001");
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENonceLive)]
fun forget_nonce_at_its_deadline_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_clock(&mut run, 5_000);
    step_forget_nonce<SUI>(&mut run, STRANGER, b"g_0001");
    run_end(run);
}

#[test]
fun forget_nonce_after_its_deadline_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_clock(&mut run, 5_001);
    step_forget_nonce<SUI>(&mut run, STRANGER, b"g_0001");
    expect_no_event(&run);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENonceUnknown)]
fun forget_nonce_of_an_unknown_nonce_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_clock(&mut run, 5_001);
    step_forget_nonce<SUI>(&mut run, OWNER, b"g_unknown");
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EDeadlinePassed)]
fun create_policy_grant_after_its_nonce_was_forgotten_still_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_clock(&mut run, 5_001);
    step_forget_nonce<SUI>(&mut run, OWNER, b"g_0001");
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun pay_checks_versions_before_delegate() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_pool_version<SUI>(&mut run, 0);
    step_pay<SUI>(&mut run, STRANGER, RECIPIENT, 1);
    run_end(run);
}

// === End of generated tests ===
