#[test_only]
module spend_account::spend_account_tests;

// The module is aliased as `sa` (not `Self`) so that the name `spend_account`
// keeps meaning the package address, and the full paths in
// `expected_failure(abort_code = spend_account::spend_account::E...)` resolve
// without ambiguity.
use spend_account::spend_account::{Self as sa, AdminCap, Pool, Grant, Registry, Session};
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
/// The sessions' operator: besides the payee, the only one who may `claim_and_close`.
const OPERATOR: address = @0xC105E;
/// The publisher, who gets the AdminCap.
const ADMIN: address = @0xAD;

/// What the pool is funded with at the start of every test.
const INITIAL: u64 = 1_000;
/// Limits of the default grant.
const SESSION_CAP: u64 = 500;
const MAX_PER_PAYMENT: u64 = 200;
const EXPIRY_MS: u64 = 10_000;

/// The furthest a create's deadline may be from the Clock (the module's
/// `MAX_CREATE_LIFETIME_MS`): the tests that are not about deadlines use it.
const WEEK_MS: u64 = 604_800_000;

const KIND_POLICY: u8 = 0;
const KIND_SPEND: u8 = 1;
const KIND_OPEN: u8 = 2;

const WINDOW_NONE: u8 = 0;
const WINDOW_PERIOD: u8 = 1;
const WINDOW_CALENDAR_MONTH: u8 = 2;

/// UTC instants for the calendar-month tests, as `Date.UTC` gives them.
const DEC_1_2027: u64 = 1_827_619_200_000;
const DEC_15_2027: u64 = 1_828_828_800_000;
/// 2027-12-31T23:59:59.999Z.
const DEC_31_2027_LAST_MS: u64 = 1_830_297_599_999;
const JAN_1_2028: u64 = 1_830_297_600_000;
const FEB_1_2028: u64 = 1_832_976_000_000;
const FEB_10_2028: u64 = 1_833_753_600_000;
/// 2028-02-29T00:00:00Z: where a 28-day February would end.
const FEB_29_2028: u64 = 1_835_395_200_000;
/// 2028-02-29T23:59:59.999Z.
const FEB_29_2028_LAST_MS: u64 = 1_835_481_599_999;
const MAR_1_2028: u64 = 1_835_481_600_000;

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

/// A scenario in which the package's `init` has run, published by `ADMIN`:
/// the AdminCap is in ADMIN's inventory from the next transaction on.
fun publish(): Scenario {
    let mut scenario = ts::begin(ADMIN);
    sa::init_for_testing(scenario.ctx());
    scenario
}

/// Create a pool of `amount` as `owner`, in its own transaction.
fun new_pool(scenario: &mut Scenario, owner: address, amount: u64): ID {
    new_pool_of<SUI>(scenario, owner, amount)
}

fun new_pool_of<T>(scenario: &mut Scenario, owner: address, amount: u64): ID {
    create_pool_of<T>(scenario, owner, amount);
    scenario.next_tx(owner);
    ts::most_recent_id_shared<Pool<T>>().destroy_some()
}

/// Create a policy grant for `DELEGATE` on `pool_id` as `OWNER`, without a
/// window or a recipient list.
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

/// A grant for `DELEGATE` as `OWNER` with a window, no expiry and no recipient list.
fun new_windowed_grant(
    scenario: &mut Scenario,
    clock: &Clock,
    pool_id: ID,
    session_cap: u64,
    max_per_payment: u64,
    window_kind: u8,
    window_period_ms: u64,
    window_limit: u64,
): ID {
    create_windowed_grant_as(
        scenario,
        OWNER,
        clock,
        pool_id,
        session_cap,
        max_per_payment,
        0,
        window_kind,
        window_period_ms,
        window_limit,
    );
    scenario.next_tx(OWNER);
    ts::most_recent_id_shared<Grant>().destroy_some()
}

/// A create without a window.
fun create_grant_as(
    scenario: &mut Scenario,
    sender: address,
    clock: &Clock,
    pool_id: ID,
    session_cap: u64,
    max_per_payment: u64,
    expiry_ms: u64,
) {
    create_windowed_grant_as(
        scenario,
        sender,
        clock,
        pool_id,
        session_cap,
        max_per_payment,
        expiry_ms,
        WINDOW_NONE,
        0,
        0,
    );
}

/// A create with a nonce of its own and the furthest deadline allowed, so
/// that neither gets in the way of what a test is about.
fun create_windowed_grant_as(
    scenario: &mut Scenario,
    sender: address,
    clock: &Clock,
    pool_id: ID,
    session_cap: u64,
    max_per_payment: u64,
    expiry_ms: u64,
    window_kind: u8,
    window_period_ms: u64,
    window_limit: u64,
) {
    let unique = scenario.ctx().fresh_object_address();
    let nonce = std::bcs::to_bytes(&unique);
    create_grant_with<SUI>(
        scenario,
        sender,
        clock,
        pool_id,
        nonce,
        clock.timestamp_ms() + WEEK_MS,
        session_cap,
        max_per_payment,
        expiry_ms,
        window_kind,
        window_period_ms,
        window_limit,
        vector[],
    );
}

/// Every argument of `create_policy_grant` but the delegate (`DELEGATE`) and
/// the policy ids (`[7, 8]`), in its own transaction.
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
    window_kind: u8,
    window_period_ms: u64,
    window_limit: u64,
    recipients: vector<address>,
) {
    scenario.next_tx(sender);
    let registry = scenario.take_shared<Registry>();
    let mut pool = scenario.take_shared_by_id<Pool<T>>(pool_id);
    sa::create_policy_grant(
        &registry,
        &mut pool,
        nonce,
        deadline_ms,
        DELEGATE,
        session_cap,
        max_per_payment,
        expiry_ms,
        window_kind,
        window_period_ms,
        window_limit,
        recipients,
        vector[7, 8],
        clock,
        scenario.ctx(),
    );
    ts::return_shared(registry);
    ts::return_shared(pool);
}

fun withdraw_as(scenario: &mut Scenario, sender: address, pool_id: ID, amount: u64) {
    withdraw_of<SUI>(scenario, sender, pool_id, amount);
}

fun revoke_as(scenario: &mut Scenario, sender: address, grant_id: ID) {
    scenario.next_tx(sender);
    let registry = scenario.take_shared<Registry>();
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::revoke_grant(&registry, &mut grant, scenario.ctx());
    ts::return_shared(registry);
    ts::return_shared(grant);
}

/// Pause through the function for grant kind `kind`.
fun pause_as(scenario: &mut Scenario, sender: address, grant_id: ID, kind: u8) {
    scenario.next_tx(sender);
    let registry = scenario.take_shared<Registry>();
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    if (kind == KIND_POLICY) sa::pause_grant(&registry, &mut grant, scenario.ctx())
    else if (kind == KIND_SPEND) sa::pause_spend_grant(&registry, &mut grant, scenario.ctx())
    else sa::pause_open_grant(&registry, &mut grant, scenario.ctx());
    ts::return_shared(registry);
    ts::return_shared(grant);
}

/// Resume through the function for grant kind `kind`.
fun resume_as(scenario: &mut Scenario, sender: address, grant_id: ID, kind: u8) {
    scenario.next_tx(sender);
    let registry = scenario.take_shared<Registry>();
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    if (kind == KIND_POLICY) sa::resume_grant(&registry, &mut grant, scenario.ctx())
    else if (kind == KIND_SPEND) sa::resume_spend_grant(&registry, &mut grant, scenario.ctx())
    else sa::resume_open_grant(&registry, &mut grant, scenario.ctx());
    ts::return_shared(registry);
    ts::return_shared(grant);
}

fun set_kind(scenario: &mut Scenario, grant_id: ID, kind: u8) {
    scenario.next_tx(OWNER);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::set_kind_for_testing(&mut grant, kind);
    ts::return_shared(grant);
}

/// Pay `RECIPIENT` out of a `Pool<SUI>`.
fun pay_as(
    scenario: &mut Scenario,
    sender: address,
    clock: &Clock,
    grant_id: ID,
    pool_id: ID,
    amount: u64,
) {
    pay_of<SUI>(scenario, sender, clock, grant_id, pool_id, RECIPIENT, amount);
}

fun set_grant_version(scenario: &mut Scenario, grant_id: ID, version: u64) {
    scenario.next_tx(OWNER);
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::set_grant_version_for_testing(&mut grant, version);
    ts::return_shared(grant);
}

fun migrate_grant_as(scenario: &mut Scenario, sender: address, grant_id: ID) {
    scenario.next_tx(sender);
    let registry = scenario.take_shared<Registry>();
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::migrate_grant(&registry, &mut grant);
    ts::return_shared(registry);
    ts::return_shared(grant);
}

/// Leave the Registry as another package version would have: its `version`
/// above this one's (a newer package switched this one off) or below it (this
/// package is the upgrade and `set_version` has not run yet).
fun set_registry_version(scenario: &mut Scenario, version: u64) {
    scenario.next_tx(OWNER);
    let mut registry = scenario.take_shared<Registry>();
    sa::set_registry_version_for_testing(&mut registry, version);
    ts::return_shared(registry);
}

/// `set_version` with the AdminCap `sender` holds (aborts in `take_from_sender`
/// if `sender` holds none).
fun set_version_as(scenario: &mut Scenario, sender: address) {
    scenario.next_tx(sender);
    let cap = scenario.take_from_sender<AdminCap>();
    let mut registry = scenario.take_shared<Registry>();
    sa::set_version(&cap, &mut registry);
    ts::return_shared(registry);
    scenario.return_to_sender(cap);
}

fun assert_pool_value(scenario: &mut Scenario, pool_id: ID, expected: u64) {
    scenario.next_tx(OWNER);
    let pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    assert!(pool.pool_value() == expected);
    ts::return_shared(pool);
}

fun pool_holds_nonce(scenario: &mut Scenario, pool_id: ID, nonce: vector<u8>): bool {
    scenario.next_tx(OWNER);
    let pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    let held = pool.pool_has_nonce(nonce);
    ts::return_shared(pool);
    held
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

/// Returns (start_ms, spent) of the grant's current window, as the last
/// payment left it (a window only rolls when `pay` runs).
fun window_state(scenario: &mut Scenario, grant_id: ID): (u64, u64) {
    scenario.next_tx(OWNER);
    let grant = scenario.take_shared_by_id<Grant>(grant_id);
    let start_ms = grant.grant_window_start_ms();
    let spent = grant.grant_window_spent();
    ts::return_shared(grant);
    (start_ms, spent)
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
    let registry = scenario.take_shared<Registry>();
    let mut pool = scenario.take_shared_by_id<Pool<T>>(pool_id);
    let coin = mint_for_testing<T>(amount, scenario.ctx());
    sa::deposit(&registry, &mut pool, coin, scenario.ctx());
    ts::return_shared(registry);
    ts::return_shared(pool);
}

/// Withdraw and send the coin to `sender`, as a wallet's transaction would:
/// `withdraw` returns it rather than sending it anywhere.
fun withdraw_of<T>(scenario: &mut Scenario, sender: address, pool_id: ID, amount: u64) {
    scenario.next_tx(sender);
    let registry = scenario.take_shared<Registry>();
    let mut pool = scenario.take_shared_by_id<Pool<T>>(pool_id);
    let coin = sa::withdraw(&registry, &mut pool, amount, scenario.ctx());
    transfer::public_transfer(coin, sender);
    ts::return_shared(registry);
    ts::return_shared(pool);
}

fun pay_of<T>(
    scenario: &mut Scenario,
    sender: address,
    clock: &Clock,
    grant_id: ID,
    pool_id: ID,
    recipient: address,
    amount: u64,
) {
    scenario.next_tx(sender);
    let registry = scenario.take_shared<Registry>();
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    let mut pool = scenario.take_shared_by_id<Pool<T>>(pool_id);
    sa::pay(&registry, &mut grant, &mut pool, amount, recipient, b"invoice-1", clock, scenario.ctx());
    ts::return_shared(registry);
    ts::return_shared(grant);
    ts::return_shared(pool);
}

fun forget_nonce_of<T>(
    scenario: &mut Scenario,
    sender: address,
    clock: &Clock,
    pool_id: ID,
    nonce: vector<u8>,
) {
    scenario.next_tx(sender);
    let registry = scenario.take_shared<Registry>();
    let mut pool = scenario.take_shared_by_id<Pool<T>>(pool_id);
    sa::forget_nonce(&registry, &mut pool, nonce, clock);
    ts::return_shared(registry);
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
    let registry = scenario.take_shared<Registry>();
    let mut pool = scenario.take_shared_by_id<Pool<T>>(pool_id);
    sa::migrate_pool(&registry, &mut pool);
    ts::return_shared(registry);
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
    version_set: vector<sa::VersionSet>,
    /// The session the last `step_open_session` opened, and what the last
    /// step's transaction deleted (a closed session).
    session_id: Option<ID>,
    deleted: vector<ID>,
    session_opened: vector<sa::SessionOpened>,
    session_topped_up: vector<sa::SessionToppedUp>,
    session_claimed: vector<sa::SessionClaimed>,
    session_closed: vector<sa::SessionClosed>,
    session_close_requested: vector<sa::SessionCloseRequested>,
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
        version_set: vector[],
        session_id: option::none(),
        deleted: vector[],
        session_opened: vector[],
        session_topped_up: vector[],
        session_claimed: vector[],
        session_closed: vector[],
        session_close_requested: vector[],
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
        version_set: _,
        session_id: _,
        deleted: _,
        session_opened: _,
        session_topped_up: _,
        session_claimed: _,
        session_closed: _,
        session_close_requested: _,
    } = run;
    finish(scenario, clock);
}

fun pool_of(run: &VectorRun): ID {
    *run.pool_id.borrow()
}

fun grant_of(run: &VectorRun): ID {
    *run.grant_id.borrow()
}

fun session_of(run: &VectorRun): ID {
    *run.session_id.borrow()
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
    run.version_set = event::events_by_type<sa::VersionSet>();
    run.session_opened = event::events_by_type<sa::SessionOpened>();
    run.session_topped_up = event::events_by_type<sa::SessionToppedUp>();
    run.session_claimed = event::events_by_type<sa::SessionClaimed>();
    run.session_closed = event::events_by_type<sa::SessionClosed>();
    run.session_close_requested = event::events_by_type<sa::SessionCloseRequested>();
    let effects = run.scenario.next_tx(OWNER);
    run.num_events = effects.num_user_events();
    run.deleted = effects.deleted();
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

/// The withdrawn coin goes to `sender` (a transfer emits no event).
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
    window_kind: u8,
    window_period_ms: u64,
    window_limit: u64,
    recipients: vector<address>,
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
        window_kind,
        window_period_ms,
        window_limit,
        recipients,
    );
    end_step(run);
    run.grant_id = ts::most_recent_id_shared<Grant>();
}

fun step_pay<T>(run: &mut VectorRun, sender: address, recipient: address, amount: u64) {
    let grant_id = grant_of(run);
    let pool_id = pool_of(run);
    pay_of<T>(&mut run.scenario, sender, &run.clock, grant_id, pool_id, recipient, amount);
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

fun step_forget_nonce<T>(run: &mut VectorRun, sender: address, nonce: vector<u8>) {
    let pool_id = pool_of(run);
    forget_nonce_of<T>(&mut run.scenario, sender, &run.clock, pool_id, nonce);
    end_step(run);
}

/// With the AdminCap in `sender`'s inventory (the publisher's, `ADMIN`, in every row).
fun step_set_version(run: &mut VectorRun, sender: address) {
    set_version_as(&mut run.scenario, sender);
    end_step(run);
}

/// A state edit, not a call (as in the vectors): nothing to keep of it.
fun step_registry_version(run: &mut VectorRun, version: u64) {
    set_registry_version(&mut run.scenario, version);
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

/// Open a session on the latest grant and pool in a transaction whose hash
/// is `dummy_tx_hash_with_hint(tx_hint)`: the session's id, which vouchers
/// sign, is then `derive_id(that hash, 0)`, which the row computed to sign
/// its vouchers and passes as `session_id` (checked here, so that a wrong
/// assumption about the id fails loudly rather than as a bad signature).
fun step_open_session<T>(
    run: &mut VectorRun,
    sender: address,
    payee: address,
    operator: address,
    deposit: u64,
    expiry_ms: u64,
    voucher_key: vector<u8>,
    tx_hint: u64,
    session_id: address,
) {
    let grant_id = grant_of(run);
    let pool_id = pool_of(run);
    run.scenario.next_tx(sender);
    let registry = run.scenario.take_shared<Registry>();
    let mut grant = run.scenario.take_shared_by_id<Grant>(grant_id);
    let mut pool = run.scenario.take_shared_by_id<Pool<T>>(pool_id);
    let mut ctx = tx_context::new_from_hint(sender, tx_hint, 0, 0, 0);
    sa::open_session(&registry, &mut grant, &mut pool, payee, operator, deposit, expiry_ms, voucher_key, &run.clock, &mut ctx);
    ts::return_shared(registry);
    ts::return_shared(grant);
    ts::return_shared(pool);
    end_step(run);
    run.session_id = ts::most_recent_id_shared<Session<T>>();
    assert!(object::id_to_address(run.session_id.borrow()) == session_id);
}

fun step_top_up<T>(run: &mut VectorRun, sender: address, amount: u64) {
    let grant_id = grant_of(run);
    let pool_id = pool_of(run);
    let session_id = session_of(run);
    run.scenario.next_tx(sender);
    let registry = run.scenario.take_shared<Registry>();
    let mut grant = run.scenario.take_shared_by_id<Grant>(grant_id);
    let mut pool = run.scenario.take_shared_by_id<Pool<T>>(pool_id);
    let mut session = run.scenario.take_shared_by_id<Session<T>>(session_id);
    sa::top_up(&registry, &mut grant, &mut pool, &mut session, amount, &run.clock, run.scenario.ctx());
    ts::return_shared(registry);
    ts::return_shared(grant);
    ts::return_shared(pool);
    ts::return_shared(session);
    end_step(run);
}

fun step_claim<T>(run: &mut VectorRun, sender: address, cumulative: u64, signature: vector<u8>) {
    let session_id = session_of(run);
    run.scenario.next_tx(sender);
    let registry = run.scenario.take_shared<Registry>();
    let mut session = run.scenario.take_shared_by_id<Session<T>>(session_id);
    sa::claim(&registry, &mut session, cumulative, signature, &run.clock, run.scenario.ctx());
    ts::return_shared(registry);
    ts::return_shared(session);
    end_step(run);
}

/// The session is taken by value: the call deletes it.
fun step_claim_and_close<T>(run: &mut VectorRun, sender: address, cumulative: u64, signature: vector<u8>) {
    let grant_id = grant_of(run);
    let pool_id = pool_of(run);
    let session_id = session_of(run);
    run.scenario.next_tx(sender);
    let registry = run.scenario.take_shared<Registry>();
    let mut grant = run.scenario.take_shared_by_id<Grant>(grant_id);
    let mut pool = run.scenario.take_shared_by_id<Pool<T>>(pool_id);
    let session = run.scenario.take_shared_by_id<Session<T>>(session_id);
    sa::claim_and_close(&registry, session, &mut grant, &mut pool, cumulative, signature, &run.clock, run.scenario.ctx());
    ts::return_shared(registry);
    ts::return_shared(grant);
    ts::return_shared(pool);
    end_step(run);
}

/// The session is taken by value: the call deletes it.
fun step_close_session<T>(run: &mut VectorRun, sender: address) {
    let grant_id = grant_of(run);
    let pool_id = pool_of(run);
    let session_id = session_of(run);
    run.scenario.next_tx(sender);
    let registry = run.scenario.take_shared<Registry>();
    let mut grant = run.scenario.take_shared_by_id<Grant>(grant_id);
    let mut pool = run.scenario.take_shared_by_id<Pool<T>>(pool_id);
    let session = run.scenario.take_shared_by_id<Session<T>>(session_id);
    sa::close_session(&registry, session, &mut grant, &mut pool, &run.clock, run.scenario.ctx());
    ts::return_shared(registry);
    ts::return_shared(grant);
    ts::return_shared(pool);
    end_step(run);
}

fun step_request_close<T>(run: &mut VectorRun, sender: address) {
    let grant_id = grant_of(run);
    let session_id = session_of(run);
    run.scenario.next_tx(sender);
    let registry = run.scenario.take_shared<Registry>();
    let grant = run.scenario.take_shared_by_id<Grant>(grant_id);
    let mut session = run.scenario.take_shared_by_id<Session<T>>(session_id);
    sa::request_close(&registry, &mut session, &grant, &run.clock, run.scenario.ctx());
    ts::return_shared(registry);
    ts::return_shared(grant);
    ts::return_shared(session);
    end_step(run);
}

fun step_migrate_session<T>(run: &mut VectorRun, sender: address) {
    let session_id = session_of(run);
    run.scenario.next_tx(sender);
    let registry = run.scenario.take_shared<Registry>();
    let mut session = run.scenario.take_shared_by_id<Session<T>>(session_id);
    sa::migrate_session(&registry, &mut session);
    ts::return_shared(registry);
    ts::return_shared(session);
    end_step(run);
}

/// A state edit, not a call (as in the vectors): nothing to keep of it.
fun step_session_version<T>(run: &mut VectorRun, version: u64) {
    let session_id = session_of(run);
    run.scenario.next_tx(OWNER);
    let mut session = run.scenario.take_shared_by_id<Session<T>>(session_id);
    sa::set_session_version_for_testing(&mut session, version);
    ts::return_shared(session);
}

/// Move the Clock on (`set_for_testing` aborts if it would go back).
fun step_clock(run: &mut VectorRun, ms: u64) {
    run.clock.set_for_testing(ms);
}

/// The call emitted no event (a row expecting `{ ok: null }`: withdraw,
/// migrate_*, forget_nonce).
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
/// pool, with these limits, a window begun at `window_start_ms` with nothing
/// spent, and these recipients, naming `T`; the grant holds what the event says.
fun expect_grant_created<T>(
    run: &VectorRun,
    nonce: vector<u8>,
    session_cap: u64,
    max_per_payment: u64,
    expiry_ms: u64,
    window_kind: u8,
    window_period_ms: u64,
    window_limit: u64,
    window_start_ms: u64,
    recipients: vector<address>,
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
        sa::window_for_testing(window_kind, window_period_ms, window_limit, window_start_ms, 0),
        recipients,
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
    assert!(grant.grant_window_start_ms() == window_start_ms);
    assert!(grant.grant_window_spent() == 0);
    assert!(grant.grant_recipients() == recipients);
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

/// The call emitted one event, `PaymentMade` of `amount` to `recipient`
/// (`spent` in all, `window_spent` in the current window), the grant has
/// spent that much, the pool holds `pool_value` and the recipient got a coin
/// of `amount` (its newest: the test store lists an address's objects in the
/// order they arrived).
fun expect_payment_made<T>(
    run: &VectorRun,
    recipient: address,
    amount: u64,
    spent: u64,
    window_spent: u64,
    pool_value: u64,
) {
    let grant_id = grant_of(run);
    let pool_id = pool_of(run);
    let expected = sa::payment_made_for_testing(
        grant_id,
        pool_id,
        DELEGATE,
        recipient,
        amount,
        spent,
        window_spent,
        b"invoice-1",
    );
    assert!(run.num_events == 1);
    assert!(run.payment_made == vector[expected]);
    let grant = run.scenario.take_shared_by_id<Grant>(grant_id);
    assert!(grant.grant_spent() == spent);
    assert!(grant.grant_window_spent() == window_spent);
    ts::return_shared(grant);
    let pool = run.scenario.take_shared_by_id<Pool<T>>(pool_id);
    assert!(pool.pool_value() == pool_value);
    ts::return_shared(pool);
    let coin = run.scenario.take_from_address<Coin<T>>(recipient);
    assert!(coin.value() == amount);
    coin.burn_for_testing();
}

/// The call emitted one event, `VersionSet` to `version`, and the Registry is at `version`.
fun expect_version_set(run: &VectorRun, version: u64) {
    assert!(run.num_events == 1);
    assert!(run.version_set == vector[sa::version_set_for_testing(version)]);
    let registry = run.scenario.take_shared<Registry>();
    assert!(registry.registry_version() == version);
    ts::return_shared(registry);
}

/// What the grant has spent (in all and in its current window) and the pool holds.
fun expect_grant_and_pool<T>(run: &VectorRun, spent: u64, window_spent: u64, pool_value: u64) {
    let grant = run.scenario.take_shared_by_id<Grant>(grant_of(run));
    assert!(grant.grant_spent() == spent);
    assert!(grant.grant_window_spent() == window_spent);
    ts::return_shared(grant);
    let pool = run.scenario.take_shared_by_id<Pool<T>>(pool_of(run));
    assert!(pool.pool_value() == pool_value);
    ts::return_shared(pool);
}

/// The payee's newest coin holds `amount` (the test store lists an address's
/// objects in the order they arrived).
fun expect_paid<T>(run: &VectorRun, payee: address, amount: u64) {
    let coin = run.scenario.take_from_address<Coin<T>>(payee);
    assert!(coin.value() == amount);
    coin.burn_for_testing();
}

/// The call emitted one event, `SessionOpened` for the session it shared on
/// the grant and pool, which holds the deposit for `payee` (closable early by
/// `operator` too); the grant has spent `spent` (`window_spent` in its window)
/// and the pool holds `pool_value`.
fun expect_session_opened<T>(
    run: &VectorRun,
    payee: address,
    operator: address,
    deposit: u64,
    expiry_ms: u64,
    voucher_key: vector<u8>,
    spent: u64,
    window_spent: u64,
    pool_value: u64,
) {
    let session_id = session_of(run);
    let expected = sa::session_opened_for_testing(
        session_id,
        grant_of(run),
        pool_of(run),
        DELEGATE,
        payee,
        operator,
        type_name::with_defining_ids<T>().into_string(),
        voucher_key,
        deposit,
        expiry_ms,
        spent,
        window_spent,
    );
    assert!(run.num_events == 1);
    assert!(run.session_opened == vector[expected]);
    let session = run.scenario.take_shared_by_id<Session<T>>(session_id);
    assert!(session.session_grant_id() == grant_of(run));
    assert!(session.session_pool_id() == pool_of(run));
    assert!(session.session_owner() == OWNER);
    assert!(session.session_delegate() == DELEGATE);
    assert!(session.session_payee() == payee);
    assert!(session.session_operator() == operator);
    assert!(session.session_voucher_key() == voucher_key);
    assert!(session.session_value() == deposit);
    assert!(session.session_deposit() == deposit);
    assert!(session.session_claimed() == 0);
    assert!(session.session_expiry_ms() == expiry_ms);
    assert!(session.session_close_at_ms() == 0);
    assert!(session.session_version() == 1);
    ts::return_shared(session);
    expect_grant_and_pool<T>(run, spent, window_spent, pool_value);
}

/// The call emitted one event, `SessionToppedUp` by `amount` to `deposit`.
fun expect_session_topped_up<T>(
    run: &VectorRun,
    amount: u64,
    deposit: u64,
    spent: u64,
    window_spent: u64,
    pool_value: u64,
) {
    let session_id = session_of(run);
    let expected = sa::session_topped_up_for_testing(session_id, grant_of(run), amount, deposit, spent, window_spent);
    assert!(run.num_events == 1);
    assert!(run.session_topped_up == vector[expected]);
    let session = run.scenario.take_shared_by_id<Session<T>>(session_id);
    assert!(session.session_deposit() == deposit);
    assert!(session.session_value() == deposit - session.session_claimed());
    ts::return_shared(session);
    expect_grant_and_pool<T>(run, spent, window_spent, pool_value);
}

/// The call emitted one event, `SessionClaimed` of `amount` (`claimed` in
/// all), the payee got a coin of `amount` and the session holds `session_value`.
fun expect_session_claimed<T>(run: &VectorRun, payee: address, amount: u64, claimed: u64, session_value: u64) {
    let session_id = session_of(run);
    assert!(run.num_events == 1);
    assert!(run.session_claimed == vector[sa::session_claimed_for_testing(session_id, payee, amount, claimed)]);
    let session = run.scenario.take_shared_by_id<Session<T>>(session_id);
    assert!(session.session_claimed() == claimed);
    assert!(session.session_value() == session_value);
    ts::return_shared(session);
    expect_paid<T>(run, payee, amount);
}

/// The call emitted one event, `SessionClosed`, returning `returned` to the
/// pool; the session is deleted.
fun expect_session_closed<T>(
    run: &VectorRun,
    payee: address,
    claimed: u64,
    returned: u64,
    spent: u64,
    window_spent: u64,
    pool_value: u64,
) {
    let session_id = session_of(run);
    let expected = sa::session_closed_for_testing(session_id, grant_of(run), payee, claimed, returned, spent, window_spent);
    assert!(run.num_events == 1);
    assert!(run.session_closed == vector[expected]);
    assert!(run.deleted.contains(&session_id));
    expect_grant_and_pool<T>(run, spent, window_spent, pool_value);
}

/// The call emitted two events: `SessionClaimed` of `amount`, then
/// `SessionClosed`; the payee got a coin of `amount` and the session is deleted.
fun expect_session_claimed_and_closed<T>(
    run: &VectorRun,
    payee: address,
    amount: u64,
    claimed: u64,
    returned: u64,
    spent: u64,
    window_spent: u64,
    pool_value: u64,
) {
    let session_id = session_of(run);
    let expected = sa::session_closed_for_testing(session_id, grant_of(run), payee, claimed, returned, spent, window_spent);
    assert!(run.num_events == 2);
    assert!(run.session_claimed == vector[sa::session_claimed_for_testing(session_id, payee, amount, claimed)]);
    assert!(run.session_closed == vector[expected]);
    assert!(run.deleted.contains(&session_id));
    expect_grant_and_pool<T>(run, spent, window_spent, pool_value);
    expect_paid<T>(run, payee, amount);
}

/// The call emitted one event, `SessionCloseRequested` at `close_at_ms`, which the session holds.
fun expect_session_close_requested<T>(run: &VectorRun, close_at_ms: u64) {
    let session_id = session_of(run);
    let expected = sa::session_close_requested_for_testing(session_id, grant_of(run), close_at_ms);
    assert!(run.num_events == 1);
    assert!(run.session_close_requested == vector[expected]);
    let session = run.scenario.take_shared_by_id<Session<T>>(session_id);
    assert!(session.session_close_at_ms() == close_at_ms);
    ts::return_shared(session);
}

// === Happy paths ===

// `withdraw_as` sends the returned coin to the sender, as a wallet would.
#[test]
fun withdraw_then_transfer_gives_the_owner_a_coin() {
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
    let registry = scenario.take_shared<Registry>();
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::pause_grant(&registry, &mut grant, scenario.ctx());
    let events = event::events_by_type<sa::GrantPauseSet>();
    let expected = sa::grant_pause_set_for_testing(grant_id, pool_id, OWNER, true);
    assert!(events[events.length() - 1] == expected);
    assert!(grant.grant_paused());
    ts::return_shared(registry);
    ts::return_shared(grant);
    let effects = scenario.next_tx(OWNER);
    assert!(effects.num_user_events() == 1);

    let registry = scenario.take_shared<Registry>();
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    sa::resume_grant(&registry, &mut grant, scenario.ctx());
    let events = event::events_by_type<sa::GrantPauseSet>();
    let expected = sa::grant_pause_set_for_testing(grant_id, pool_id, OWNER, false);
    assert!(events[events.length() - 1] == expected);
    assert!(!grant.grant_paused());
    ts::return_shared(registry);
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
    let registry = scenario.take_shared<Registry>();
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    sa::pay(&registry, &mut grant, &mut pool, 200, RECIPIENT, b"invoice-1", &clock, scenario.ctx());
    let events = event::events_by_type<sa::PaymentMade>();
    let expected = sa::payment_made_for_testing(
        grant_id,
        pool_id,
        DELEGATE,
        RECIPIENT,
        200,
        200,
        0,
        b"invoice-1",
    );
    assert!(events[events.length() - 1] == expected);
    assert!(grant.grant_spent() == 200);
    assert!(pool.pool_value() == INITIAL - 200);
    ts::return_shared(registry);
    ts::return_shared(grant);
    ts::return_shared(pool);
    let effects = scenario.next_tx(DELEGATE);
    assert!(effects.num_user_events() == 1);

    let registry = scenario.take_shared<Registry>();
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    sa::pay(&registry, &mut grant, &mut pool, 150, RECIPIENT, b"invoice-2", &clock, scenario.ctx());
    let events = event::events_by_type<sa::PaymentMade>();
    let expected = sa::payment_made_for_testing(
        grant_id,
        pool_id,
        DELEGATE,
        RECIPIENT,
        150,
        350,
        0,
        b"invoice-2",
    );
    assert!(events[events.length() - 1] == expected);
    ts::return_shared(registry);
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

// `withdraw` returns its coin into the transaction, which may send it
// anywhere: here straight to someone else than the owner.
#[test]
fun withdraw_returns_a_coin_the_owner_can_send_anywhere() {
    let (mut scenario, clock, pool_id) = start();
    scenario.next_tx(OWNER);
    let registry = scenario.take_shared<Registry>();
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    let coin = sa::withdraw(&registry, &mut pool, 300, scenario.ctx());
    assert!(coin.value() == 300);
    transfer::public_transfer(coin, RECIPIENT);
    ts::return_shared(registry);
    ts::return_shared(pool);
    let effects = scenario.next_tx(OWNER);
    assert!(effects.num_user_events() == 0);
    let coin = scenario.take_from_address<Coin<SUI>>(RECIPIENT);
    assert!(coin.value() == 300);
    coin.burn_for_testing();
    assert_pool_value(&mut scenario, pool_id, INITIAL - 300);
    finish(scenario, clock);
}

// ... or use further in the same transaction: withdraw composes with deposit
// (as it could not when it transferred the coin itself). Only the deposit emits.
#[test]
fun withdraw_then_deposit_in_one_transaction() {
    let (mut scenario, clock, pool_id) = start();
    scenario.next_tx(OWNER);
    let registry = scenario.take_shared<Registry>();
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    let coin = sa::withdraw(&registry, &mut pool, 300, scenario.ctx());
    assert!(pool.pool_value() == INITIAL - 300);
    sa::deposit(&registry, &mut pool, coin, scenario.ctx());
    assert!(pool.pool_value() == INITIAL);
    assert!(event::events_by_type<sa::Deposited>() == vector[sa::deposited_for_testing(pool_id, 300)]);
    ts::return_shared(registry);
    ts::return_shared(pool);
    let effects = scenario.next_tx(OWNER);
    assert!(effects.num_user_events() == 1);
    assert!(ts::ids_for_address<Coin<SUI>>(OWNER).length() == 0);
    assert_pool_value(&mut scenario, pool_id, INITIAL);
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

// === create_policy_grant failures (order: versions, owner, deadline,
// deadline bound, nonce, caps, expiry, window, recipients) ===

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

#[test, expected_failure(abort_code = spend_account::spend_account::EExpired)]
fun create_policy_grant_checks_expiry_before_window() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(5_000);
    // Expiry in the past and an unknown window kind.
    create_windowed_grant_as(
        &mut scenario,
        OWNER,
        &clock,
        pool_id,
        SESSION_CAP,
        MAX_PER_PAYMENT,
        4_999,
        3,
        0,
        300,
    );
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInvalidWindow)]
fun create_policy_grant_checks_window_before_recipients() {
    let (mut scenario, clock, pool_id) = start();
    // A fixed window without a period, and one recipient too many (repeats
    // count: only the list's length is bounded).
    let mut recipients = vector[];
    let mut i = 0;
    while (i < 17) {
        recipients.push_back(RECIPIENT);
        i = i + 1;
    };
    create_grant_with<SUI>(
        &mut scenario,
        OWNER,
        &clock,
        pool_id,
        b"n-1",
        WEEK_MS,
        SESSION_CAP,
        MAX_PER_PAYMENT,
        0,
        WINDOW_PERIOD,
        0,
        300,
        recipients,
    );
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

// === pause / resume failures (order: versions, owner, kind, revoked, pause state) ===

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

// === pay failures (order: versions, delegate, pool, zero, revoked, paused,
// expiry, recipient, max per payment, session cap, window, balance) ===

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

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsSessionCap)]
fun pay_checks_session_cap_before_window() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = new_windowed_grant(&mut scenario, &clock, pool_id, 500, 400, WINDOW_PERIOD, 60_000, 300);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 200);
    // 300 left of the cap, 100 of the window: 301 is above both.
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 301);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsWindowLimit)]
fun pay_checks_window_before_balance() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = new_windowed_grant(&mut scenario, &clock, pool_id, 2_000, 2_000, WINDOW_PERIOD, 60_000, 300);
    withdraw_as(&mut scenario, OWNER, pool_id, INITIAL - 100);
    // Pool holds 100; 301 is above both the window's limit and the pool.
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 301);
    finish(scenario, clock);
}

// === Nonces ===

// Once its deadline has passed a nonce only takes space: anyone may drop it,
// and the pool's other nonces stay.
#[test]
fun forget_nonce_after_its_deadline_removes_only_that_entry() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(1_000);
    create_grant_with<SUI>(
        &mut scenario,
        OWNER,
        &clock,
        pool_id,
        b"n-1",
        5_000,
        SESSION_CAP,
        MAX_PER_PAYMENT,
        0,
        WINDOW_NONE,
        0,
        0,
        vector[],
    );
    create_grant_with<SUI>(
        &mut scenario,
        OWNER,
        &clock,
        pool_id,
        b"n-2",
        1_000 + WEEK_MS,
        SESSION_CAP,
        MAX_PER_PAYMENT,
        0,
        WINDOW_NONE,
        0,
        0,
        vector[],
    );
    assert!(pool_holds_nonce(&mut scenario, pool_id, b"n-1"));
    clock.set_for_testing(5_001);
    forget_nonce_of<SUI>(&mut scenario, STRANGER, &clock, pool_id, b"n-1");
    assert!(!pool_holds_nonce(&mut scenario, pool_id, b"n-1"));
    assert!(pool_holds_nonce(&mut scenario, pool_id, b"n-2"));
    finish(scenario, clock);
}

// Forgetting a nonce does not let its create run again: the deadline that
// made it forgettable still stops it.
#[test, expected_failure(abort_code = spend_account::spend_account::EDeadlinePassed)]
fun create_policy_grant_with_a_forgotten_nonce_still_fails() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(1_000);
    create_grant_with<SUI>(
        &mut scenario,
        OWNER,
        &clock,
        pool_id,
        b"n-1",
        5_000,
        SESSION_CAP,
        MAX_PER_PAYMENT,
        0,
        WINDOW_NONE,
        0,
        0,
        vector[],
    );
    clock.set_for_testing(5_001);
    forget_nonce_of<SUI>(&mut scenario, OWNER, &clock, pool_id, b"n-1");
    assert!(!pool_holds_nonce(&mut scenario, pool_id, b"n-1"));
    create_grant_with<SUI>(
        &mut scenario,
        OWNER,
        &clock,
        pool_id,
        b"n-1",
        5_000,
        SESSION_CAP,
        MAX_PER_PAYMENT,
        0,
        WINDOW_NONE,
        0,
        0,
        vector[],
    );
    finish(scenario, clock);
}

// === Windows ===
//
// The vector rows cover a window's first boundary near the epoch; these
// follow windows across dates where the arithmetic could go wrong.

// February 2028 has 29 days: its window runs to 2028-03-01T00:00:00Z, so the
// last ms of the 29th still counts against February's limit.
#[test]
fun calendar_month_window_covers_a_leap_february() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(FEB_10_2028);
    let grant_id = new_windowed_grant(&mut scenario, &clock, pool_id, 1_000, 300, WINDOW_CALENDAR_MONTH, 0, 300);
    let (start_ms, spent) = window_state(&mut scenario, grant_id);
    assert!(start_ms == FEB_1_2028 && spent == 0);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 200);

    clock.set_for_testing(FEB_29_2028_LAST_MS);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 100);
    let (start_ms, spent) = window_state(&mut scenario, grant_id);
    assert!(start_ms == FEB_1_2028 && spent == 300);

    clock.set_for_testing(MAR_1_2028);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 300);
    let (start_ms, spent) = window_state(&mut scenario, grant_id);
    assert!(start_ms == MAR_1_2028 && spent == 300);
    finish(scenario, clock);
}

// Where a 28-day February would have ended, the window has not rolled.
#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsWindowLimit)]
fun calendar_month_window_does_not_roll_on_the_29th_of_a_leap_february() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(FEB_10_2028);
    let grant_id = new_windowed_grant(&mut scenario, &clock, pool_id, 1_000, 300, WINDOW_CALENDAR_MONTH, 0, 300);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 200);
    clock.set_for_testing(FEB_29_2028);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 101);
    finish(scenario, clock);
}

// December's window ends at the new year, whose window starts on January 1st
// of the next year (the month and the year both wrap).
#[test]
fun calendar_month_window_rolls_from_december_into_january() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(DEC_15_2027);
    let grant_id = new_windowed_grant(&mut scenario, &clock, pool_id, 1_000, 300, WINDOW_CALENDAR_MONTH, 0, 300);
    let (start_ms, spent) = window_state(&mut scenario, grant_id);
    assert!(start_ms == DEC_1_2027 && spent == 0);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 200);

    clock.set_for_testing(DEC_31_2027_LAST_MS);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 100);
    let (start_ms, spent) = window_state(&mut scenario, grant_id);
    assert!(start_ms == DEC_1_2027 && spent == 300);

    clock.set_for_testing(JAN_1_2028);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 300);
    let (start_ms, spent) = window_state(&mut scenario, grant_id);
    assert!(start_ms == JAN_1_2028 && spent == 300);
    finish(scenario, clock);
}

// Fixed windows lie on a grid of whole periods from the grant's creation:
// after idle periods, the window holding now starts on that grid, not at
// the payment that rolled it.
#[test]
fun fixed_window_keeps_its_phase_over_several_periods() {
    let (mut scenario, mut clock, pool_id) = start();
    clock.set_for_testing(7_000);
    let grant_id = new_windowed_grant(&mut scenario, &clock, pool_id, 1_000, 300, WINDOW_PERIOD, 60_000, 300);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 200);
    let (start_ms, spent) = window_state(&mut scenario, grant_id);
    assert!(start_ms == 7_000 && spent == 200);

    // Three periods and a bit on: the fourth window, [187_000, 247_000).
    clock.set_for_testing(199_345);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 100);
    let (start_ms, spent) = window_state(&mut scenario, grant_id);
    assert!(start_ms == 187_000 && spent == 100);

    // Its last ms.
    clock.set_for_testing(246_999);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 150);
    let (start_ms, spent) = window_state(&mut scenario, grant_id);
    assert!(start_ms == 187_000 && spent == 250);

    clock.set_for_testing(247_000);
    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 300);
    let (start_ms, spent) = window_state(&mut scenario, grant_id);
    assert!(start_ms == 247_000 && spent == 300);

    let (spent, _, _) = grant_state(&mut scenario, grant_id);
    assert!(spent == 750);
    finish(scenario, clock);
}

// === Publish and versions ===

// The AdminCap goes to the publisher alone; the Registry starts at this
// package's version.
#[test]
fun publish_sends_the_admin_cap_to_the_publisher() {
    let mut scenario = publish();
    scenario.next_tx(ADMIN);
    assert!(ts::ids_for_address<AdminCap>(ADMIN).length() == 1);
    assert!(!ts::has_most_recent_for_address<AdminCap>(OWNER));
    let registry = scenario.take_shared<Registry>();
    assert!(registry.registry_version() == 1);
    ts::return_shared(registry);
    scenario.end();
}

// An upgrade's path: while the Registry is at the older version every call
// into this package aborts; the AdminCap's holder moves it over, and grants
// and pools already at this version work again without a migration.
#[test]
fun set_version_by_the_admin_then_pay_succeeds() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    set_registry_version(&mut scenario, 0);

    scenario.next_tx(ADMIN);
    let cap = scenario.take_from_sender<AdminCap>();
    let mut registry = scenario.take_shared<Registry>();
    sa::set_version(&cap, &mut registry);
    assert!(registry.registry_version() == 1);
    assert!(event::events_by_type<sa::VersionSet>() == vector[sa::version_set_for_testing(1)]);
    ts::return_shared(registry);
    scenario.return_to_sender(cap);
    let effects = scenario.next_tx(ADMIN);
    assert!(effects.num_user_events() == 1);

    pay_as(&mut scenario, DELEGATE, &clock, grant_id, pool_id, 100);
    let (spent, _, _) = grant_state(&mut scenario, grant_id);
    assert!(spent == 100);
    assert_pool_value(&mut scenario, pool_id, INITIAL - 100);
    finish(scenario, clock);
}

// The right is the AdminCap, not the publisher's address: whoever it was
// handed to can set the version.
#[test]
fun set_version_by_whoever_holds_the_admin_cap() {
    let mut scenario = publish();
    scenario.next_tx(ADMIN);
    let cap = scenario.take_from_sender<AdminCap>();
    transfer::public_transfer(cap, STRANGER);
    set_registry_version(&mut scenario, 0);
    set_version_as(&mut scenario, STRANGER);
    scenario.next_tx(STRANGER);
    let registry = scenario.take_shared<Registry>();
    assert!(registry.registry_version() == 1);
    ts::return_shared(registry);
    scenario.end();
}

// === Sessions ===
//
// The vector rows cover every check of the session functions; these cover
// what rows do not say well: the voucher's bytes, several sessions on one
// grant, and a pool of the right type that is not the session's.

/// An Ed25519 public key's worth of bytes: the key check only counts them.
const SESSION_KEY: vector<u8> = x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e";
const SESSION_EXPIRY_MS: u64 = 9_000;

/// Open a session for `RECIPIENT` (its operator `OPERATOR`) as `DELEGATE`, in its own transaction; returns its ID.
fun open_session_of(scenario: &mut Scenario, clock: &Clock, grant_id: ID, pool_id: ID, deposit: u64): ID {
    scenario.next_tx(DELEGATE);
    let registry = scenario.take_shared<Registry>();
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    sa::open_session(&registry, &mut grant, &mut pool, RECIPIENT, OPERATOR, deposit, SESSION_EXPIRY_MS, SESSION_KEY, clock, scenario.ctx());
    ts::return_shared(registry);
    ts::return_shared(grant);
    ts::return_shared(pool);
    scenario.next_tx(DELEGATE);
    ts::most_recent_id_shared<Session<SUI>>().destroy_some()
}

/// Close the session as `sender`, returning the rest to `pool_id`.
fun close_session_as(scenario: &mut Scenario, sender: address, clock: &Clock, session_id: ID, grant_id: ID, pool_id: ID) {
    scenario.next_tx(sender);
    let registry = scenario.take_shared<Registry>();
    let mut grant = scenario.take_shared_by_id<Grant>(grant_id);
    let mut pool = scenario.take_shared_by_id<Pool<SUI>>(pool_id);
    let session = scenario.take_shared_by_id<Session<SUI>>(session_id);
    sa::close_session(&registry, session, &mut grant, &mut pool, clock, scenario.ctx());
    ts::return_shared(registry);
    ts::return_shared(grant);
    ts::return_shared(pool);
}

#[test]
fun voucher_message_is_the_domain_the_session_id_and_the_amount_in_little_endian() {
    let id = object::id_from_address(@0x1234);
    let mut plain = b"sui-gw-voucher:v1";
    plain.append(object::id_to_bytes(&id));
    plain.append(x"0201000000000000");
    assert!(sa::voucher_message_for_testing(id, 258, false) == plain);
    let mut final_message = b"sui-gw-voucher-final:v1";
    final_message.append(object::id_to_bytes(&id));
    final_message.append(x"0201000000000000");
    assert!(sa::voucher_message_for_testing(id, 258, true) == final_message);
    // The id is its 32 bytes, as an address is in BCS.
    assert!(object::id_to_bytes(&id).length() == 32);
}

#[test]
fun sessions_on_one_grant_each_hold_their_part_of_its_spending() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    let first = open_session_of(&mut scenario, &clock, grant_id, pool_id, 200);
    let second = open_session_of(&mut scenario, &clock, grant_id, pool_id, 250);
    assert!(first != second);
    let (spent, _, _) = grant_state(&mut scenario, grant_id);
    assert!(spent == 450);
    assert_pool_value(&mut scenario, pool_id, INITIAL - 450);
    // The payee closes the first: its deposit, and only it, comes back.
    close_session_as(&mut scenario, RECIPIENT, &clock, first, grant_id, pool_id);
    let (spent, _, _) = grant_state(&mut scenario, grant_id);
    assert!(spent == 250);
    assert_pool_value(&mut scenario, pool_id, INITIAL - 250);
    scenario.next_tx(OWNER);
    let session = scenario.take_shared_by_id<Session<SUI>>(second);
    assert!(session.session_value() == 250);
    ts::return_shared(session);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongPool)]
fun close_session_into_another_pool_of_the_same_coin_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    let session_id = open_session_of(&mut scenario, &clock, grant_id, pool_id, 200);
    let strangers_pool = new_pool(&mut scenario, STRANGER, 10);
    close_session_as(&mut scenario, RECIPIENT, &clock, session_id, grant_id, strangers_pool);
    finish(scenario, clock);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongPool)]
fun open_session_on_another_pool_of_the_same_coin_fails() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    let strangers_pool = new_pool(&mut scenario, STRANGER, 1_000);
    open_session_of(&mut scenario, &clock, grant_id, strangers_pool, 200);
    finish(scenario, clock);
}

#[test]
fun a_session_grant_can_be_revoked_and_the_session_still_closed_by_its_payee() {
    let (mut scenario, clock, pool_id) = start();
    let grant_id = default_grant(&mut scenario, &clock, pool_id);
    let session_id = open_session_of(&mut scenario, &clock, grant_id, pool_id, 300);
    revoke_as(&mut scenario, OWNER, grant_id);
    close_session_as(&mut scenario, RECIPIENT, &clock, session_id, grant_id, pool_id);
    let effects = scenario.next_tx(OWNER);
    assert!(effects.deleted().contains(&session_id));
    let (spent, _, revoked) = grant_state(&mut scenario, grant_id);
    assert!(spent == 0 && revoked);
    assert_pool_value(&mut scenario, pool_id, INITIAL);
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

#[test]
fun open_session_moves_the_deposit_into_a_shared_session() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    expect_session_opened<SUI>(&run, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 300, 0, 700);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotDelegate)]
fun open_session_by_the_owner_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, OWNER, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongPool)]
fun open_session_on_another_pool_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_create_pool<Wrapper<Y>>(&mut run, OWNER, 5);
    step_open_session<Wrapper<Y>>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EZeroAmount)]
fun open_session_with_a_zero_deposit_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 0, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ERevoked)]
fun open_session_when_revoked_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_revoke(&mut run, OWNER);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EPaused)]
fun open_session_when_paused_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExpired)]
fun open_session_at_the_grant_expiry_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_clock(&mut run, 10_000);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 20_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ERecipientNotAllowed)]
fun open_session_for_a_payee_not_on_the_list_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[RECIPIENT, @0x0000000000000000000000000000000000000000000000000000000000000b0b]);
    step_open_session<SUI>(&mut run, DELEGATE, STRANGER, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test]
fun open_session_for_a_listed_payee_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[RECIPIENT, @0x0000000000000000000000000000000000000000000000000000000000000b0b]);
    step_open_session<SUI>(&mut run, DELEGATE, @0x0000000000000000000000000000000000000000000000000000000000000b0b, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    expect_session_opened<SUI>(&run, @0x0000000000000000000000000000000000000000000000000000000000000b0b, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 300, 0, 700);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ERecipientNotAllowed)]
fun open_session_checks_the_payee_before_the_voucher_key() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[RECIPIENT, @0x0000000000000000000000000000000000000000000000000000000000000b0b]);
    step_open_session<SUI>(&mut run, DELEGATE, STRANGER, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInvalidVoucherKey)]
fun open_session_with_a_voucher_key_not_32_bytes_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInvalidSessionExpiry)]
fun open_session_expiring_now_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 1_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInvalidSessionExpiry)]
fun open_session_expiring_after_the_grant_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 10_001, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test]
fun open_session_expiring_with_the_grant_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 10_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    expect_session_opened<SUI>(&run, RECIPIENT, OPERATOR, 300, 10_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 300, 0, 700);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInvalidSessionExpiry)]
fun open_session_expiring_in_more_than_seven_days_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 604_801_001, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test]
fun open_session_expiring_in_seven_days_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 604_801_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    expect_session_opened<SUI>(&run, RECIPIENT, OPERATOR, 300, 604_801_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 300, 0, 700);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInvalidVoucherKey)]
fun open_session_checks_the_voucher_key_before_the_expiry() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 1_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsSessionCap)]
fun open_session_above_the_session_cap_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 501, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsWindowLimit)]
fun open_session_above_the_window_limit_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 301, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test]
fun open_session_within_the_window_limit_charges_the_window() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 100);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 200, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    expect_session_opened<SUI>(&run, RECIPIENT, OPERATOR, 200, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 300, 300, 700);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EInsufficientBalance)]
fun open_session_above_the_pool_balance_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_withdraw<SUI>(&mut run, OWNER, 950);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun open_session_on_an_old_version_grant_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_grant_version(&mut run, 0);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsSessionCap)]
fun pay_while_a_session_holds_the_budget_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 400, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 101);
    run_end(run);
}

#[test]
fun top_up_adds_to_the_deposit_and_the_spending() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_top_up<SUI>(&mut run, DELEGATE, 150);
    expect_session_topped_up<SUI>(&run, 150, 450, 450, 0, 550);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotDelegate)]
fun top_up_by_a_stranger_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_top_up<SUI>(&mut run, STRANGER, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EZeroAmount)]
fun top_up_of_zero_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_top_up<SUI>(&mut run, DELEGATE, 0);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EPaused)]
fun top_up_when_paused_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_top_up<SUI>(&mut run, DELEGATE, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ESessionEnded)]
fun top_up_at_the_session_expiry_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_clock(&mut run, 9_000);
    step_top_up<SUI>(&mut run, DELEGATE, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ESessionEnded)]
fun top_up_after_request_close_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_request_close<SUI>(&mut run, OWNER);
    step_resume(&mut run, OWNER, KIND_POLICY);
    step_top_up<SUI>(&mut run, DELEGATE, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsSessionCap)]
fun top_up_above_the_session_cap_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_top_up<SUI>(&mut run, DELEGATE, 201);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsWindowLimit)]
fun top_up_above_the_window_limit_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 200, 200_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_top_up<SUI>(&mut run, DELEGATE, 101);
    run_end(run);
}

#[test]
fun top_up_in_a_later_window_charges_that_window() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 200, 200_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_clock(&mut run, 61_000);
    step_top_up<SUI>(&mut run, DELEGATE, 250);
    expect_session_topped_up<SUI>(&run, 250, 450, 450, 250, 550);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun top_up_on_an_old_version_session_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_session_version<SUI>(&mut run, 0);
    step_top_up<SUI>(&mut run, DELEGATE, 1);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongGrant)]
fun top_up_with_another_grant_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0002", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_top_up<SUI>(&mut run, DELEGATE, 1);
    run_end(run);
}

#[test]
fun claim_by_anyone_pays_the_payee_up_to_the_voucher() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, STRANGER, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    expect_session_claimed<SUI>(&run, RECIPIENT, 120, 120, 180);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EBadVoucherSignature)]
fun claim_signed_by_another_key_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"a255bfda74761874fb0e801d2225373dcab040db097183f5b5306e634fb7ae89aa39ae1d2e7ef314a48c7a576021345ccb54e6c81932d161eac75d164c405904");
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EBadVoucherSignature)]
fun claim_of_more_than_was_signed_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"c40a011a8caad893b74cf840b665009a7d7b119d4d815605b531c7da48579f96ed003dcc5e3a2d762c852a9ab8ec13e59c66f2dcfe87634141d99f7f3e2e0e08");
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EBadVoucherSignature)]
fun claim_with_a_voucher_for_another_session_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"b7a9f0a43cc0f956325f04bf01d75f24f43d8487e7bcc80b483b66ceb873229ad3da600f6c85847636041fde9715177ecc7d1c8980a7c95d75f0ffd72c4a5501");
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EBadVoucherSignature)]
fun claim_with_a_final_voucher_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"4148b070b8a53d79e0e3b3d7288fe63dc769cd39eccc4ff1dc344e3c2a36cc130214e6ca5e5d8379f46e24b39fe5433e3ff2911a520ed996ba299f4f42a90508");
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsDeposit)]
fun claim_above_the_deposit_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 301, x"6421421403455837ed69c442746479d6fec25993f1216246cd2971230353e3d966eef6162655f2eaa3e1745d6fc337f04f195bfc3e22299e0ae104df336e5e07");
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsDeposit)]
fun claim_checks_the_deposit_before_the_signature() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 301, x"12fefcc2e54ff838ecf86038f8b60a9bf6037b308c5c2568bb74c62588ed51ee07b0d7af2adb35ebc6bab782c351ef7f7719abbd6e5d1f18a06211478fbe5004");
    run_end(run);
}

#[test]
fun claim_of_the_whole_deposit_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 300, x"1a5bb6237f1a1e34320e2cd427089e7e5707e97ad353e6c5ef463b561a8118553b5c725312ede69adef2217420a3771fa2a5615119181f09aae0b1bcfcdfb90f");
    expect_session_claimed<SUI>(&run, RECIPIENT, 300, 300, 0);
    run_end(run);
}

#[test]
fun claim_of_what_was_claimed_is_a_no_op() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    expect_no_event(&run);
    run_end(run);
}

#[test]
fun claim_below_what_was_claimed_is_a_no_op() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    step_claim<SUI>(&mut run, RECIPIENT, 50, x"c697fc21860b6d0c3e83042b352e33f98915d1d7db756b95e6f83266a668480c0135ff9c52f6119522d1765fc5edf34f7c61a027d432177ca271d63094fd4703");
    expect_no_event(&run);
    run_end(run);
}

#[test]
fun claim_of_more_pays_the_difference() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    step_claim<SUI>(&mut run, RECIPIENT, 200, x"4fa1b2443c11854fa379f08ad0fb1adf22e5eb1be9837f67120fb5b5aa4f76c58be8e315460767767c209b1fb74e2fb7418a928b7f49322518fa0669bd42ab03");
    expect_session_claimed<SUI>(&run, RECIPIENT, 80, 200, 100);
    run_end(run);
}

#[test]
fun claim_while_the_grant_is_paused_still_pays() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    expect_session_claimed<SUI>(&run, RECIPIENT, 120, 120, 180);
    run_end(run);
}

#[test]
fun claim_after_the_grant_is_revoked_still_pays() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_revoke(&mut run, OWNER);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    expect_session_claimed<SUI>(&run, RECIPIENT, 120, 120, 180);
    run_end(run);
}

#[test]
fun claim_after_the_grant_expired_still_pays() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_clock(&mut run, 10_000);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    expect_session_claimed<SUI>(&run, RECIPIENT, 120, 120, 180);
    run_end(run);
}

#[test]
fun claim_at_the_claim_deadline_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_clock(&mut run, 3_609_000);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    expect_session_claimed<SUI>(&run, RECIPIENT, 120, 120, 180);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EClaimsOver)]
fun claim_after_the_claim_deadline_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_clock(&mut run, 3_609_001);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EClaimsOver)]
fun claim_checks_the_deadline_before_the_deposit() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_clock(&mut run, 3_609_001);
    step_claim<SUI>(&mut run, RECIPIENT, 301, x"6421421403455837ed69c442746479d6fec25993f1216246cd2971230353e3d966eef6162655f2eaa3e1745d6fc337f04f195bfc3e22299e0ae104df336e5e07");
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EClaimsOver)]
fun claim_after_the_requested_close_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_request_close<SUI>(&mut run, OWNER);
    step_clock(&mut run, 3_601_001);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    run_end(run);
}

#[test]
fun claim_at_the_requested_close_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_request_close<SUI>(&mut run, OWNER);
    step_clock(&mut run, 3_601_000);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    expect_session_claimed<SUI>(&run, RECIPIENT, 120, 120, 180);
    run_end(run);
}

#[test]
fun claim_of_a_topped_up_deposit_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_top_up<SUI>(&mut run, DELEGATE, 100);
    step_claim<SUI>(&mut run, RECIPIENT, 400, x"d466652ff36233ad1a43c3f0da0bb8a491d7ee1bd07389d0ad67ed5d943f3a37975d1300cb7035cbeabd2db91c4759f4414eed16282b09378878e472364f1a01");
    expect_session_claimed<SUI>(&run, RECIPIENT, 400, 400, 0);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun claim_on_an_old_version_session_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_session_version<SUI>(&mut run, 0);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    run_end(run);
}

#[test]
fun close_session_by_the_payee_before_expiry_returns_the_rest() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    step_close_session<SUI>(&mut run, RECIPIENT);
    expect_session_closed<SUI>(&run, RECIPIENT, 120, 180, 120, 0, 880);
    run_end(run);
}

#[test]
fun close_session_with_nothing_claimed_returns_the_deposit() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_close_session<SUI>(&mut run, RECIPIENT);
    expect_session_closed<SUI>(&run, RECIPIENT, 0, 300, 0, 0, 1_000);
    run_end(run);
}

#[test]
fun close_session_with_everything_claimed_returns_nothing() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 300, x"1a5bb6237f1a1e34320e2cd427089e7e5707e97ad353e6c5ef463b561a8118553b5c725312ede69adef2217420a3771fa2a5615119181f09aae0b1bcfcdfb90f");
    step_close_session<SUI>(&mut run, RECIPIENT);
    expect_session_closed<SUI>(&run, RECIPIENT, 300, 0, 300, 0, 700);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ESessionLive)]
fun close_session_by_a_stranger_before_the_deadline_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_close_session<SUI>(&mut run, STRANGER);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ESessionLive)]
fun close_session_by_the_delegate_before_the_deadline_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_close_session<SUI>(&mut run, DELEGATE);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ESessionLive)]
fun close_session_by_a_stranger_at_the_deadline_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_clock(&mut run, 3_609_000);
    step_close_session<SUI>(&mut run, STRANGER);
    run_end(run);
}

#[test]
fun close_session_by_a_stranger_after_the_deadline_returns_the_rest() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    step_clock(&mut run, 3_609_001);
    step_close_session<SUI>(&mut run, STRANGER);
    expect_session_closed<SUI>(&run, RECIPIENT, 120, 180, 120, 0, 880);
    run_end(run);
}

#[test]
fun close_session_on_a_revoked_grant_works() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_revoke(&mut run, OWNER);
    step_close_session<SUI>(&mut run, RECIPIENT);
    expect_session_closed<SUI>(&run, RECIPIENT, 0, 300, 0, 0, 1_000);
    run_end(run);
}

#[test]
fun close_session_on_a_paused_grant_works() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_close_session<SUI>(&mut run, RECIPIENT);
    expect_session_closed<SUI>(&run, RECIPIENT, 0, 300, 0, 0, 1_000);
    run_end(run);
}

#[test]
fun close_session_after_the_grant_expired_works() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_clock(&mut run, 10_000);
    step_close_session<SUI>(&mut run, RECIPIENT);
    expect_session_closed<SUI>(&run, RECIPIENT, 0, 300, 0, 0, 1_000);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongGrant)]
fun close_session_with_another_grant_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0002", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_close_session<SUI>(&mut run, RECIPIENT);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongVersion)]
fun close_session_on_an_old_version_pool_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pool_version<SUI>(&mut run, 0);
    step_close_session<SUI>(&mut run, RECIPIENT);
    run_end(run);
}

#[test]
fun pay_after_a_session_closed_spends_what_it_returned() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 100, x"c40a011a8caad893b74cf840b665009a7d7b119d4d815605b531c7da48579f96ed003dcc5e3a2d762c852a9ab8ec13e59c66f2dcfe87634141d99f7f3e2e0e08");
    step_close_session<SUI>(&mut run, RECIPIENT);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 200);
    expect_payment_made<SUI>(&run, RECIPIENT, 200, 500, 0, 500);
    run_end(run);
}

#[test]
fun close_session_in_its_window_gives_the_window_back() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 200, 200_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 50, x"c697fc21860b6d0c3e83042b352e33f98915d1d7db756b95e6f83266a668480c0135ff9c52f6119522d1765fc5edf34f7c61a027d432177ca271d63094fd4703");
    step_close_session<SUI>(&mut run, RECIPIENT);
    expect_session_closed<SUI>(&run, RECIPIENT, 50, 150, 50, 50, 950);
    run_end(run);
}

#[test]
fun close_session_after_the_window_rolled_gives_no_window_back() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 200, 200_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 50, x"c697fc21860b6d0c3e83042b352e33f98915d1d7db756b95e6f83266a668480c0135ff9c52f6119522d1765fc5edf34f7c61a027d432177ca271d63094fd4703");
    step_clock(&mut run, 61_000);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 100);
    step_close_session<SUI>(&mut run, RECIPIENT);
    expect_session_closed<SUI>(&run, RECIPIENT, 50, 150, 150, 100, 850);
    run_end(run);
}

#[test]
fun close_session_past_its_window_end_does_not_roll_the_window() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 200, 200_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_clock(&mut run, 61_000);
    step_close_session<SUI>(&mut run, RECIPIENT);
    expect_session_closed<SUI>(&run, RECIPIENT, 0, 200, 0, 200, 1_000);
    run_end(run);
}

#[test]
fun close_session_gives_a_window_back_at_most_what_it_charged_there() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 0, 1, 60_000, 300, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 200, 200_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_clock(&mut run, 61_000);
    step_pay<SUI>(&mut run, DELEGATE, RECIPIENT, 30);
    step_top_up<SUI>(&mut run, DELEGATE, 50);
    step_close_session<SUI>(&mut run, RECIPIENT);
    expect_session_closed<SUI>(&run, RECIPIENT, 0, 250, 30, 30, 970);
    run_end(run);
}

#[test]
fun claim_and_close_with_a_final_voucher_pays_and_closes() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim_and_close<SUI>(&mut run, RECIPIENT, 120, x"4148b070b8a53d79e0e3b3d7288fe63dc769cd39eccc4ff1dc344e3c2a36cc130214e6ca5e5d8379f46e24b39fe5433e3ff2911a520ed996ba299f4f42a90508");
    expect_session_claimed_and_closed<SUI>(&run, RECIPIENT, 120, 120, 180, 120, 0, 880);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotCloser)]
fun claim_and_close_by_a_stranger_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim_and_close<SUI>(&mut run, STRANGER, 120, x"4148b070b8a53d79e0e3b3d7288fe63dc769cd39eccc4ff1dc344e3c2a36cc130214e6ca5e5d8379f46e24b39fe5433e3ff2911a520ed996ba299f4f42a90508");
    run_end(run);
}

#[test]
fun claim_and_close_by_the_operator_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim_and_close<SUI>(&mut run, OPERATOR, 120, x"4148b070b8a53d79e0e3b3d7288fe63dc769cd39eccc4ff1dc344e3c2a36cc130214e6ca5e5d8379f46e24b39fe5433e3ff2911a520ed996ba299f4f42a90508");
    expect_session_claimed_and_closed<SUI>(&run, RECIPIENT, 120, 120, 180, 120, 0, 880);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotCloser)]
fun claim_and_close_checks_the_closer_before_the_deadline() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_clock(&mut run, 3_609_001);
    step_claim_and_close<SUI>(&mut run, STRANGER, 120, x"4148b070b8a53d79e0e3b3d7288fe63dc769cd39eccc4ff1dc344e3c2a36cc130214e6ca5e5d8379f46e24b39fe5433e3ff2911a520ed996ba299f4f42a90508");
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EBadVoucherSignature)]
fun claim_and_close_with_a_plain_voucher_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim_and_close<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EBadVoucherSignature)]
fun claim_and_close_signed_by_another_key_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim_and_close<SUI>(&mut run, RECIPIENT, 120, x"16a092b928bb1d4b5d097f78bee437214345624525a6ddeb68fee54df8fa14281cbd02171282f988a0ca7469c4291d38834511e5f85e8c06cbe759fe8fccdc09");
    run_end(run);
}

#[test]
fun claim_and_close_below_what_was_claimed_only_closes() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim<SUI>(&mut run, RECIPIENT, 120, x"eeefb2ed979889c84834099efe2a3c95501499f9aa56e7ef4d0d0ba87ecf9a333568a5af7e89348e388b3d8360c3e76c781eba383874964ac0ea9b3c03fb3907");
    step_claim_and_close<SUI>(&mut run, RECIPIENT, 100, x"c300010fddc6dda0fd945d15fca41a8203a1c83faa38e45d54ef25dcc8c4befa89f6f445f0b58570751167d3c35df4c5ebfd9e98c853affec77a98e3b29f4d0e");
    expect_session_closed<SUI>(&run, RECIPIENT, 120, 180, 120, 0, 880);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EExceedsDeposit)]
fun claim_and_close_above_the_deposit_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_claim_and_close<SUI>(&mut run, RECIPIENT, 301, x"e464726c4ff828069f7c83e6b1f1764bf58f2c3923f21b8302a37bfe97c4b29c4bb13e20557885a31a2fb79c06ebce90d22aeb004a142f30921d53c84870d702");
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EClaimsOver)]
fun claim_and_close_after_the_claim_deadline_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_clock(&mut run, 3_609_001);
    step_claim_and_close<SUI>(&mut run, RECIPIENT, 120, x"4148b070b8a53d79e0e3b3d7288fe63dc769cd39eccc4ff1dc344e3c2a36cc130214e6ca5e5d8379f46e24b39fe5433e3ff2911a520ed996ba299f4f42a90508");
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongGrant)]
fun claim_and_close_with_another_grant_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0002", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_claim_and_close<SUI>(&mut run, RECIPIENT, 120, x"4148b070b8a53d79e0e3b3d7288fe63dc769cd39eccc4ff1dc344e3c2a36cc130214e6ca5e5d8379f46e24b39fe5433e3ff2911a520ed996ba299f4f42a90508");
    run_end(run);
}

#[test]
fun claim_and_close_on_a_revoked_grant_works() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_revoke(&mut run, OWNER);
    step_claim_and_close<SUI>(&mut run, RECIPIENT, 300, x"835fc79e4dd33b94bdcb94537fd7fb6773db6e40fdcbb2424f3469bb12e9bc329775589e2fdd2367a6fda6ee4c96e90906ddc4868bd7f6f89350b908b8337a00");
    expect_session_claimed_and_closed<SUI>(&run, RECIPIENT, 300, 300, 0, 300, 0, 700);
    run_end(run);
}

#[test]
fun request_close_on_a_paused_grant_sets_the_close() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_request_close<SUI>(&mut run, OWNER);
    expect_session_close_requested<SUI>(&run, 3_601_000);
    run_end(run);
}

#[test]
fun request_close_on_a_revoked_grant_sets_the_close() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_revoke(&mut run, OWNER);
    step_request_close<SUI>(&mut run, OWNER);
    expect_session_close_requested<SUI>(&run, 3_601_000);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EGrantActive)]
fun request_close_on_an_active_grant_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_request_close<SUI>(&mut run, OWNER);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun request_close_by_a_stranger_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_request_close<SUI>(&mut run, STRANGER);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotOwner)]
fun request_close_by_the_delegate_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_request_close<SUI>(&mut run, DELEGATE);
    run_end(run);
}

#[test]
fun request_close_again_later_keeps_the_earlier_close() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_request_close<SUI>(&mut run, OWNER);
    step_clock(&mut run, 2_000);
    step_request_close<SUI>(&mut run, OWNER);
    expect_session_close_requested<SUI>(&run, 3_601_000);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::EWrongGrant)]
fun request_close_with_another_grant_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0002", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_request_close<SUI>(&mut run, OWNER);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ESessionLive)]
fun close_session_by_a_stranger_at_the_requested_close_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_request_close<SUI>(&mut run, OWNER);
    step_clock(&mut run, 3_601_000);
    step_close_session<SUI>(&mut run, STRANGER);
    run_end(run);
}

#[test]
fun close_session_by_a_stranger_after_the_requested_close_returns_the_rest() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_pause(&mut run, OWNER, KIND_POLICY);
    step_request_close<SUI>(&mut run, OWNER);
    step_clock(&mut run, 3_601_001);
    step_close_session<SUI>(&mut run, STRANGER);
    expect_session_closed<SUI>(&run, RECIPIENT, 0, 300, 0, 0, 1_000);
    run_end(run);
}

#[test]
fun migrate_session_by_anyone_succeeds() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_session_version<SUI>(&mut run, 0);
    step_migrate_session<SUI>(&mut run, STRANGER);
    expect_no_event(&run);
    run_end(run);
}

#[test, expected_failure(abort_code = spend_account::spend_account::ENotUpgrade)]
fun migrate_session_at_the_current_version_fails() {
    let mut run = run_begin(1_000);
    step_create_pool<SUI>(&mut run, OWNER, 1_000);
    step_create_grant<SUI>(&mut run, OWNER, b"g_0001", 5_000, 500, 200, 10_000, 0, 0, 0, vector[]);
    step_open_session<SUI>(&mut run, DELEGATE, RECIPIENT, OPERATOR, 300, 9_000, x"8146640f02493af4fbc54fe33388e75dc2c937ae0b7727cc2b2afb1b75199a3e", 1_000_000, @0x95bde857437bd6eb9b8f7fc5cef28854720cae5a7e25d300eab046b6c2770536);
    step_migrate_session<SUI>(&mut run, OWNER);
    run_end(run);
}

// === End of generated tests ===
