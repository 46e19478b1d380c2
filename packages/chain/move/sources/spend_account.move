/// Delegated spending from an owner-funded pool.
///
/// An owner locks funds of one coin type in a shared `Pool<T>` and hands a
/// delegate (for example a payment gateway's signer) a shared `Grant` that
/// lets the delegate pay out of the pool under limits chosen by the owner:
/// a cap on the whole session, a cap on each payment, an optional expiry, an
/// optional limit per window (a fixed period or a calendar month in UTC) and
/// an optional list of the only recipients it may pay. The owner can pause,
/// resume or revoke the grant at any time, and deposit into or withdraw from
/// the pool.
///
/// Sessions: the delegate may move a deposit out of the pool, under the
/// grant's limits, into a shared `Session<T>` for one payee. The payee (or
/// anyone on its behalf) claims from it with vouchers: the delegate's
/// session key signs, with Ed25519 (the only scheme supported), the domain
/// tag, the session's id and the cumulative amount the payee may have. A
/// session ends at its expiry; claims stay valid `SESSION_GRACE_MS` longer,
/// then anyone may close it and the rest goes back to the pool (and off the
/// grant's spending). The payee may close it at any time, a final voucher
/// closes it early, and once the grant is paused or revoked its owner may
/// bring the end forward to a grace from now (`request_close`).
///
/// Upgrades: the shared `Registry` carries the package version every entry
/// function requires. An upgrade that must switch older code off bumps
/// `VERSION`, and the holder of the `AdminCap` calls `set_version` through the
/// new package: from then on every call into an older package version aborts
/// (EWrongVersion), `pay` and `create_pool` included.
///
/// The TypeScript description in
/// `packages/domain/src/chain/SpendAccountModule.ts` mirrors this file
/// (function names, argument order, event field order, abort codes and the
/// order in which checks are made), and `packages/local-ledger/src/execute/SpendAccountEntries.ts`
/// executes it check by check, citing the lines below. Change all together.
module spend_account::spend_account;

use std::ascii::String;
use std::bcs;
use std::type_name;
use sui::balance::Balance;
use sui::clock::Clock;
use sui::coin::{Self, Coin};
use sui::derived_object;
use sui::ed25519;
use sui::event;
use sui::table::{Self, Table};

// === Errors ===

/// The sender is not the owner of the pool or grant.
const ENotOwner: u64 = 1;
/// The sender is not the delegate of the grant.
const ENotDelegate: u64 = 2;
/// The grant is paused.
const EPaused: u64 = 3;
/// The grant has been revoked.
const ERevoked: u64 = 4;
/// The grant has expired, or the requested expiry is not in the future.
const EExpired: u64 = 5;
/// The amount is above the grant's per-payment limit.
const EExceedsMaxPerPayment: u64 = 6;
/// The amount would take the grant's total spending above its session cap.
const EExceedsSessionCap: u64 = 7;
/// The pool does not hold enough funds.
const EInsufficientBalance: u64 = 8;
/// The caps are invalid: need 0 < max_per_payment <= session_cap.
const EInvalidCaps: u64 = 9;
/// The pool passed in is not the pool the grant was issued on.
const EWrongPool: u64 = 10;
/// The grant is already paused.
const EAlreadyPaused: u64 = 11;
/// The grant is not paused.
const ENotPaused: u64 = 12;
/// The amount is zero.
const EZeroAmount: u64 = 13;
/// The grant is already revoked.
const EAlreadyRevoked: u64 = 14;
/// The grant is of another kind than the function handles.
const EWrongKind: u64 = 15;
/// The object's `version` is not the one this package version serves.
const EWrongVersion: u64 = 16;
/// A create with this nonce already ran on this pool.
const ENonceUsed: u64 = 17;
/// The create's deadline has passed.
const EDeadlinePassed: u64 = 18;
/// `migrate_*` or `set_version` on something already at this package's version.
const ENotUpgrade: u64 = 19;
/// The window's arguments are not a valid window (see `valid_window`).
const EInvalidWindow: u64 = 20;
/// The amount would take the current window's spending above its limit.
const EExceedsWindowLimit: u64 = 21;
/// More recipients than `MAX_RECIPIENTS`.
const ETooManyRecipients: u64 = 22;
/// The grant lists its recipients and this one is not among them.
const ERecipientNotAllowed: u64 = 23;
/// The create's deadline is further than `MAX_CREATE_LIFETIME_MS` away.
const EDeadlineTooFar: u64 = 24;
/// `forget_nonce` before the nonce's deadline has passed.
const ENonceLive: u64 = 25;
/// `forget_nonce` of a nonce the pool does not hold.
const ENonceUnknown: u64 = 26;
/// A session's voucher key is not an Ed25519 public key's 32 bytes.
const EInvalidVoucherKey: u64 = 27;
/// A session's expiry is not in the future, is more than
/// `SESSION_MAX_LIFETIME_MS` away, or is past the grant's expiry.
const EInvalidSessionExpiry: u64 = 28;
/// The voucher's signature does not verify under the session's voucher key.
const EBadVoucherSignature: u64 = 29;
/// The voucher's cumulative amount is above what the session was deposited.
const EExceedsDeposit: u64 = 30;
/// The session's claim deadline has passed.
const EClaimsOver: u64 = 31;
/// Closing a session before its claim deadline, by someone other than its payee.
const ESessionLive: u64 = 32;
/// The grant passed in is not the session's.
const EWrongGrant: u64 = 33;
/// `request_close` while the grant is neither paused nor revoked.
const EGrantActive: u64 = 34;
/// `top_up` of a session past its expiry or whose close was requested.
const ESessionEnded: u64 = 35;
/// `claim_and_close` by someone other than the session's payee or operator.
const ENotCloser: u64 = 36;

// === Versions ===

/// The version this package serves, of the `Registry` (every call) and of
/// `Pool` and `Grant` objects. An upgrade that bumps it, followed by
/// `set_version`, switches every older package version off; `migrate_*` then
/// moves objects over.
const VERSION: u64 = 1;

// === Bounds ===

/// The most recipients a grant may list.
const MAX_RECIPIENTS: u64 = 16;
/// The furthest a create's deadline may be: its nonce can be forgotten after
/// it, so a pool's nonce table stays bounded by the creates of a week.
const MAX_CREATE_LIFETIME_MS: u64 = 604_800_000;
/// A fixed window's shortest and longest period: a minute and 366 days.
const MIN_PERIOD_MS: u64 = 60_000;
const MAX_PERIOD_MS: u64 = 31_622_400_000;
const DAY_MS: u64 = 86_400_000;
/// The furthest a session's expiry may be from its opening: a week.
const SESSION_MAX_LIFETIME_MS: u64 = 604_800_000;
/// How long claims stay valid after a session's expiry (or after its owner
/// asked to close it): the payee's time to present its last voucher.
const SESSION_GRACE_MS: u64 = 3_600_000;
/// An Ed25519 public key's length.
const ED25519_KEY_LENGTH: u64 = 32;

// === Voucher domains ===

/// What a voucher's signature covers begins with one of these tags, so that
/// the session key's signatures mean nothing elsewhere, and a final voucher
/// (which also closes the session) cannot pass for a plain one or back.
const VOUCHER_DOMAIN: vector<u8> = b"sui-gw-voucher:v1";
const FINAL_VOUCHER_DOMAIN: vector<u8> = b"sui-gw-voucher-final:v1";

// === Window kinds ===

const WINDOW_NONE: u8 = 0;
/// Fixed periods of `period_ms`, the first starting at the grant's creation.
const WINDOW_PERIOD: u8 = 1;
/// Calendar months in UTC.
const WINDOW_CALENDAR_MONTH: u8 = 2;

// === Grant kinds ===

/// A grant created by `create_policy_grant`.
const KIND_POLICY: u8 = 0;
/// A spend grant.
const KIND_SPEND: u8 = 1;
/// An open grant.
const KIND_OPEN: u8 = 2;

// === Objects ===

/// Created and shared once, at publish. Every pool's id is derived from it
/// and the pool's `PoolKey`, so a pool's id is known before it exists and
/// there is at most one pool per owner and coin type. Its `version` is the
/// package version every entry function requires.
public struct Registry has key {
    id: UID,
    version: u64,
}

/// The right to move the `Registry` to a new package version. Sent to the
/// publisher by `init`.
public struct AdminCap has key, store {
    id: UID,
}

/// At most `limit` may be paid per window. `kind` 0: no window (all fields 0).
public struct Window has copy, drop, store {
    kind: u8,
    /// A fixed window's length; 0 for calendar months.
    period_ms: u64,
    limit: u64,
    /// When the current window began.
    start_ms: u64,
    /// Paid in the window that began at `start_ms`.
    spent: u64,
}

/// The key a pool's id is derived under: one pool per `owner` and `T`.
public struct PoolKey<phantom T> has copy, drop, store {
    owner: address,
}

/// Funds of coin type `T` belonging to `owner`. Shared, so that delegates
/// can pay out of it.
public struct Pool<phantom T> has key {
    id: UID,
    version: u64,
    owner: address,
    balance: Balance<T>,
    /// The nonces of the creates that ran on this pool, each with its
    /// deadline: each runs once, and is forgotten (`forget_nonce`) after it.
    nonces: Table<vector<u8>, u64>,
}

/// The right of `delegate` to pay out of the pool `pool_id`, within limits.
/// Shared, so that both the owner and the delegate can use it. Without
/// `store`: nobody can wrap it or move it out of its shared place.
public struct Grant has key {
    id: UID,
    version: u64,
    /// The pool this grant spends from.
    pool_id: ID,
    /// The pool's owner; the only one who can pause, resume or revoke.
    owner: address,
    /// The only sender allowed to `pay`.
    delegate: address,
    /// The most that can be paid in total under this grant.
    session_cap: u64,
    /// What has been paid so far under this grant.
    spent: u64,
    /// The most a single payment can be.
    max_per_payment: u64,
    /// Clock time (ms) from which the grant can no longer be used; 0 = never.
    expiry_ms: u64,
    /// The most that can be paid per window.
    window: Window,
    /// The only recipients `pay` may pay; empty = any.
    recipients: vector<address>,
    paused: bool,
    revoked: bool,
    /// Off-chain policy identifiers the grant was issued under.
    policy_ids: vector<u64>,
    /// 0 = policy grant, 1 = spend grant, 2 = open grant.
    kind: u8,
}

/// A deposit taken from the grant's pool for `payee`, paid out against the
/// delegate's vouchers. Shared, so that anyone can claim for the payee and
/// close it once it is over. Without `store`, as for grants.
public struct Session<phantom T> has key {
    id: UID,
    version: u64,
    /// The grant it was opened under, whose spending it counts in.
    grant_id: ID,
    /// The pool the deposit came from, and where the rest goes back.
    pool_id: ID,
    /// The grant's owner and delegate.
    owner: address,
    delegate: address,
    /// The only one claims pay.
    payee: address,
    /// Besides the payee, the only one who may end the session early with the
    /// delegate's final voucher (`claim_and_close`): the gateway taking its vouchers.
    operator: address,
    /// The Ed25519 public key vouchers are signed with.
    voucher_key: vector<u8>,
    /// What is left to claim: `deposit - claimed` until the session closes.
    balance: Balance<T>,
    /// Everything deposited: at `open_session` and by every `top_up`.
    deposit: u64,
    /// Paid to the payee so far: the highest voucher claimed.
    claimed: u64,
    /// Clock time (ms) from which the session takes no more deposits; claims
    /// stay valid `SESSION_GRACE_MS` longer.
    expiry_ms: u64,
    /// The claim deadline `request_close` set; 0 = none.
    close_at_ms: u64,
    /// The grant's window the session's deposits were last charged to, and
    /// how much they charged it: what a close may give back to that window.
    window_start_ms: u64,
    window_charged: u64,
}

// === Events ===

public struct PoolCreated has copy, drop {
    pool_id: ID,
    owner: address,
    coin_type: String,
}

public struct Deposited has copy, drop {
    pool_id: ID,
    amount: u64,
}

public struct GrantCreated has copy, drop {
    grant_id: ID,
    nonce: vector<u8>,
    pool_id: ID,
    owner: address,
    delegate: address,
    coin_type: String,
    session_cap: u64,
    max_per_payment: u64,
    expiry_ms: u64,
    window: Window,
    recipients: vector<address>,
    policy_ids: vector<u64>,
}

public struct GrantRevoked has copy, drop {
    grant_id: ID,
    pool_id: ID,
    owner: address,
}

public struct GrantPauseSet has copy, drop {
    grant_id: ID,
    pool_id: ID,
    owner: address,
    paused: bool,
}

public struct PaymentMade has copy, drop {
    grant_id: ID,
    pool_id: ID,
    delegate: address,
    recipient: address,
    amount: u64,
    spent: u64,
    /// What the current window has spent, this payment included; 0 without a window.
    window_spent: u64,
    memo: vector<u8>,
}

public struct VersionSet has copy, drop {
    version: u64,
}

public struct SessionOpened has copy, drop {
    session_id: ID,
    grant_id: ID,
    pool_id: ID,
    delegate: address,
    payee: address,
    operator: address,
    coin_type: String,
    voucher_key: vector<u8>,
    deposit: u64,
    expiry_ms: u64,
    /// The grant's spending, and its current window's, the deposit included.
    spent: u64,
    window_spent: u64,
}

public struct SessionToppedUp has copy, drop {
    session_id: ID,
    grant_id: ID,
    amount: u64,
    /// The session's deposit in all, this amount included.
    deposit: u64,
    spent: u64,
    window_spent: u64,
}

public struct SessionClaimed has copy, drop {
    session_id: ID,
    payee: address,
    amount: u64,
    /// What the payee has had in all.
    claimed: u64,
}

public struct SessionClosed has copy, drop {
    session_id: ID,
    grant_id: ID,
    payee: address,
    claimed: u64,
    /// What went back to the pool.
    returned: u64,
    /// The grant's spending, and its current window's, after the refund.
    spent: u64,
    window_spent: u64,
}

public struct SessionCloseRequested has copy, drop {
    session_id: ID,
    grant_id: ID,
    close_at_ms: u64,
}

// === Publish ===

fun init(ctx: &mut TxContext) {
    transfer::share_object(Registry { id: object::new(ctx), version: VERSION });
    transfer::transfer(AdminCap { id: object::new(ctx) }, ctx.sender());
}

// === Pool ===

/// Create the sender's pool for `T`, funded with `coin`, and share it. Its
/// id is derived from the registry and (sender, T): a second pool for the
/// same pair aborts in `derived_object::claim`.
public fun create_pool<T>(registry: &mut Registry, coin: Coin<T>, ctx: &mut TxContext) {
    assert!(registry.version == VERSION, EWrongVersion);
    let owner = ctx.sender();
    let pool = Pool<T> {
        id: derived_object::claim(&mut registry.id, PoolKey<T> { owner }),
        version: VERSION,
        owner,
        balance: coin.into_balance(),
        nonces: table::new(ctx),
    };
    event::emit(PoolCreated {
        pool_id: object::id(&pool),
        owner,
        coin_type: type_name::with_defining_ids<T>().into_string(),
    });
    transfer::share_object(pool);
}

/// Add `coin` to the pool. Owner only.
public fun deposit<T>(registry: &Registry, pool: &mut Pool<T>, coin: Coin<T>, ctx: &TxContext) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(pool.version == VERSION, EWrongVersion);
    assert!(ctx.sender() == pool.owner, ENotOwner);
    let amount = coin.value();
    pool.balance.join(coin.into_balance());
    event::emit(Deposited { pool_id: object::id(pool), amount });
}

/// Take `amount` out of the pool, returned to the caller's transaction
/// (which may send it anywhere or use it further). Owner only.
public fun withdraw<T>(registry: &Registry, pool: &mut Pool<T>, amount: u64, ctx: &mut TxContext): Coin<T> {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(pool.version == VERSION, EWrongVersion);
    assert!(ctx.sender() == pool.owner, ENotOwner);
    assert!(pool.balance.value() >= amount, EInsufficientBalance);
    coin::take(&mut pool.balance, amount, ctx)
}

/// Forget a create's nonce once its deadline has passed: the create can no
/// longer run (EDeadlinePassed), so the entry only takes space. Anyone.
public fun forget_nonce<T>(registry: &Registry, pool: &mut Pool<T>, nonce: vector<u8>, clock: &Clock) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(pool.version == VERSION, EWrongVersion);
    assert!(pool.nonces.contains(nonce), ENonceUnknown);
    assert!(clock.timestamp_ms() > *pool.nonces.borrow(nonce), ENonceLive);
    pool.nonces.remove(nonce);
}

// === Grants ===

/// Let `delegate` pay out of `pool`, at most `max_per_payment` a payment,
/// `session_cap` in total and, with a window, `window_limit` per window,
/// until `expiry_ms` (0 = no expiry), to `recipients` only (empty = anyone).
/// Owner only. `nonce` makes the create single-use on this pool;
/// `deadline_ms` is the last clock time at which it may run.
/// Checks, in order: registry version, pool version, owner, deadline,
/// deadline bound, nonce, caps, expiry, window, recipients.
public fun create_policy_grant<T>(
    registry: &Registry,
    pool: &mut Pool<T>,
    nonce: vector<u8>,
    deadline_ms: u64,
    delegate: address,
    session_cap: u64,
    max_per_payment: u64,
    expiry_ms: u64,
    window_kind: u8,
    window_period_ms: u64,
    window_limit: u64,
    recipients: vector<address>,
    policy_ids: vector<u64>,
    clock: &Clock,
    ctx: &mut TxContext,
) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(pool.version == VERSION, EWrongVersion);
    assert!(ctx.sender() == pool.owner, ENotOwner);
    let now = clock.timestamp_ms();
    assert!(now <= deadline_ms, EDeadlinePassed);
    assert!(deadline_ms - now <= MAX_CREATE_LIFETIME_MS, EDeadlineTooFar);
    assert!(!pool.nonces.contains(nonce), ENonceUsed);
    pool.nonces.add(nonce, deadline_ms);
    assert!(max_per_payment > 0 && max_per_payment <= session_cap, EInvalidCaps);
    assert!(expiry_ms == 0 || expiry_ms > now, EExpired);
    assert!(valid_window(window_kind, window_period_ms, window_limit), EInvalidWindow);
    assert!(recipients.length() <= MAX_RECIPIENTS, ETooManyRecipients);

    let window = Window {
        kind: window_kind,
        period_ms: window_period_ms,
        limit: window_limit,
        start_ms: if (window_kind == WINDOW_NONE) 0
        else if (window_kind == WINDOW_CALENDAR_MONTH) month_start_ms(now)
        else now,
        spent: 0,
    };
    let grant = Grant {
        id: object::new(ctx),
        version: VERSION,
        pool_id: object::id(pool),
        owner: pool.owner,
        delegate,
        session_cap,
        spent: 0,
        max_per_payment,
        expiry_ms,
        window,
        recipients,
        paused: false,
        revoked: false,
        policy_ids,
        kind: KIND_POLICY,
    };
    event::emit(GrantCreated {
        grant_id: object::id(&grant),
        nonce,
        pool_id: grant.pool_id,
        owner: grant.owner,
        delegate,
        coin_type: type_name::with_defining_ids<T>().into_string(),
        session_cap,
        max_per_payment,
        expiry_ms,
        window,
        recipients: grant.recipients,
        policy_ids: grant.policy_ids,
    });
    transfer::share_object(grant);
}

/// End the grant for good. Owner only. Works on any kind of grant and
/// whether or not it is paused.
public fun revoke_grant(registry: &Registry, grant: &mut Grant, ctx: &TxContext) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(grant.version == VERSION, EWrongVersion);
    assert!(ctx.sender() == grant.owner, ENotOwner);
    assert!(!grant.revoked, EAlreadyRevoked);
    grant.revoked = true;
    event::emit(GrantRevoked {
        grant_id: object::id(grant),
        pool_id: grant.pool_id,
        owner: grant.owner,
    });
}

/// Pause a policy grant (kind 0). Owner only.
public fun pause_grant(registry: &Registry, grant: &mut Grant, ctx: &TxContext) {
    set_paused(registry, grant, KIND_POLICY, true, ctx);
}

/// Pause a spend grant (kind 1). Owner only.
public fun pause_spend_grant(registry: &Registry, grant: &mut Grant, ctx: &TxContext) {
    set_paused(registry, grant, KIND_SPEND, true, ctx);
}

/// Pause an open grant (kind 2). Owner only.
public fun pause_open_grant(registry: &Registry, grant: &mut Grant, ctx: &TxContext) {
    set_paused(registry, grant, KIND_OPEN, true, ctx);
}

/// Resume a paused policy grant (kind 0). Owner only.
public fun resume_grant(registry: &Registry, grant: &mut Grant, ctx: &TxContext) {
    set_paused(registry, grant, KIND_POLICY, false, ctx);
}

/// Resume a paused spend grant (kind 1). Owner only.
public fun resume_spend_grant(registry: &Registry, grant: &mut Grant, ctx: &TxContext) {
    set_paused(registry, grant, KIND_SPEND, false, ctx);
}

/// Resume a paused open grant (kind 2). Owner only.
public fun resume_open_grant(registry: &Registry, grant: &mut Grant, ctx: &TxContext) {
    set_paused(registry, grant, KIND_OPEN, false, ctx);
}

/// Pay `amount` out of `pool` to `recipient` under `grant`. Delegate only.
/// Checks, in order: registry version, grant version, pool version,
/// delegate, pool, zero amount, revoked, paused, expiry, recipient,
/// per-payment limit, session cap, window limit, pool balance.
public fun pay<T>(
    registry: &Registry,
    grant: &mut Grant,
    pool: &mut Pool<T>,
    amount: u64,
    recipient: address,
    memo: vector<u8>,
    clock: &Clock,
    ctx: &mut TxContext,
) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(grant.version == VERSION, EWrongVersion);
    assert!(pool.version == VERSION, EWrongVersion);
    assert!(ctx.sender() == grant.delegate, ENotDelegate);
    assert!(grant.pool_id == object::id(pool), EWrongPool);
    assert!(amount > 0, EZeroAmount);
    assert!(!grant.revoked, ERevoked);
    assert!(!grant.paused, EPaused);
    let now = clock.timestamp_ms();
    assert!(grant.expiry_ms == 0 || now < grant.expiry_ms, EExpired);
    assert!(grant.recipients.is_empty() || grant.recipients.contains(&recipient), ERecipientNotAllowed);
    assert!(amount <= grant.max_per_payment, EExceedsMaxPerPayment);
    // `spent <= session_cap` always holds, so this cannot underflow, and
    // unlike `spent + amount <= session_cap` it cannot overflow.
    assert!(amount <= grant.session_cap - grant.spent, EExceedsSessionCap);
    if (grant.window.kind != WINDOW_NONE) {
        roll_window(&mut grant.window, now);
        // `spent <= limit` always holds within a window, as for the session cap.
        assert!(amount <= grant.window.limit - grant.window.spent, EExceedsWindowLimit);
        grant.window.spent = grant.window.spent + amount;
    };
    assert!(pool.balance.value() >= amount, EInsufficientBalance);

    let coin = coin::take(&mut pool.balance, amount, ctx);
    transfer::public_transfer(coin, recipient);
    grant.spent = grant.spent + amount;

    event::emit(PaymentMade {
        grant_id: object::id(grant),
        pool_id: grant.pool_id,
        delegate: grant.delegate,
        recipient,
        amount,
        spent: grant.spent,
        window_spent: grant.window.spent,
        memo,
    });
}

// === Sessions ===

/// Move `deposit` out of `pool` into a new shared session for `payee`, under
/// `grant`'s limits: it counts as spent (and in the current window) until a
/// close gives back what was not claimed. Claims need vouchers signed with
/// `voucher_key` (Ed25519). Delegate only. The per-payment cap does not
/// apply: the deposit is not a payment, the vouchers are.
/// Checks, in order: registry version, grant version, pool version,
/// delegate, pool, zero amount, revoked, paused, grant expiry, payee among
/// the recipients, voucher key, session expiry, session cap, window limit,
/// pool balance.
public fun open_session<T>(
    registry: &Registry,
    grant: &mut Grant,
    pool: &mut Pool<T>,
    payee: address,
    operator: address,
    deposit: u64,
    expiry_ms: u64,
    voucher_key: vector<u8>,
    clock: &Clock,
    ctx: &mut TxContext,
) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(grant.version == VERSION, EWrongVersion);
    assert!(pool.version == VERSION, EWrongVersion);
    assert!(ctx.sender() == grant.delegate, ENotDelegate);
    assert!(grant.pool_id == object::id(pool), EWrongPool);
    assert!(deposit > 0, EZeroAmount);
    assert!(!grant.revoked, ERevoked);
    assert!(!grant.paused, EPaused);
    let now = clock.timestamp_ms();
    assert!(grant.expiry_ms == 0 || now < grant.expiry_ms, EExpired);
    assert!(grant.recipients.is_empty() || grant.recipients.contains(&payee), ERecipientNotAllowed);
    assert!(voucher_key.length() == ED25519_KEY_LENGTH, EInvalidVoucherKey);
    assert!(valid_session_expiry(expiry_ms, now, grant.expiry_ms), EInvalidSessionExpiry);
    assert!(deposit <= grant.session_cap - grant.spent, EExceedsSessionCap);
    if (grant.window.kind != WINDOW_NONE) {
        roll_window(&mut grant.window, now);
        assert!(deposit <= grant.window.limit - grant.window.spent, EExceedsWindowLimit);
        grant.window.spent = grant.window.spent + deposit;
    };
    assert!(pool.balance.value() >= deposit, EInsufficientBalance);

    grant.spent = grant.spent + deposit;
    let windowed = grant.window.kind != WINDOW_NONE;
    let session = Session<T> {
        id: object::new(ctx),
        version: VERSION,
        grant_id: object::id(grant),
        pool_id: grant.pool_id,
        owner: grant.owner,
        delegate: grant.delegate,
        payee,
        operator,
        voucher_key,
        balance: pool.balance.split(deposit),
        deposit,
        claimed: 0,
        expiry_ms,
        close_at_ms: 0,
        window_start_ms: if (windowed) grant.window.start_ms else 0,
        window_charged: if (windowed) deposit else 0,
    };
    event::emit(SessionOpened {
        session_id: object::id(&session),
        grant_id: session.grant_id,
        pool_id: session.pool_id,
        delegate: session.delegate,
        payee,
        operator,
        coin_type: type_name::with_defining_ids<T>().into_string(),
        voucher_key: session.voucher_key,
        deposit,
        expiry_ms,
        spent: grant.spent,
        window_spent: grant.window.spent,
    });
    transfer::share_object(session);
}

/// Add `amount` from `pool` to the session's deposit, under `grant`'s limits
/// as for `open_session`. Delegate only, while the session takes deposits.
/// Checks, in order: registry version, grant version, pool version, session
/// version, delegate, pool, grant, zero amount, revoked, paused, grant
/// expiry, session ended, session cap, window limit, pool balance.
public fun top_up<T>(
    registry: &Registry,
    grant: &mut Grant,
    pool: &mut Pool<T>,
    session: &mut Session<T>,
    amount: u64,
    clock: &Clock,
    ctx: &mut TxContext,
) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(grant.version == VERSION, EWrongVersion);
    assert!(pool.version == VERSION, EWrongVersion);
    assert!(session.version == VERSION, EWrongVersion);
    assert!(ctx.sender() == grant.delegate, ENotDelegate);
    assert!(grant.pool_id == object::id(pool), EWrongPool);
    assert!(session.grant_id == object::id(grant), EWrongGrant);
    assert!(amount > 0, EZeroAmount);
    assert!(!grant.revoked, ERevoked);
    assert!(!grant.paused, EPaused);
    let now = clock.timestamp_ms();
    assert!(grant.expiry_ms == 0 || now < grant.expiry_ms, EExpired);
    assert!(now < session.expiry_ms && session.close_at_ms == 0, ESessionEnded);
    assert!(amount <= grant.session_cap - grant.spent, EExceedsSessionCap);
    if (grant.window.kind != WINDOW_NONE) {
        roll_window(&mut grant.window, now);
        assert!(amount <= grant.window.limit - grant.window.spent, EExceedsWindowLimit);
        grant.window.spent = grant.window.spent + amount;
        // A close only gives back to the window the session was last charged in.
        if (grant.window.start_ms == session.window_start_ms) {
            session.window_charged = session.window_charged + amount;
        } else {
            session.window_start_ms = grant.window.start_ms;
            session.window_charged = amount;
        };
    };
    assert!(pool.balance.value() >= amount, EInsufficientBalance);

    session.balance.join(pool.balance.split(amount));
    session.deposit = session.deposit + amount;
    grant.spent = grant.spent + amount;
    event::emit(SessionToppedUp {
        session_id: object::id(session),
        grant_id: session.grant_id,
        amount,
        deposit: session.deposit,
        spent: grant.spent,
        window_spent: grant.window.spent,
    });
}

/// Pay the payee up to `cumulative` in all, against the delegate's voucher
/// for it. Anyone (the payee, or anyone batching claims for it), until the
/// claim deadline; works whatever became of the grant. A voucher at or below
/// what was claimed already pays nothing and does not abort, so a batch of
/// claims never fails on one that is stale.
/// Checks, in order: registry version, session version, claim deadline,
/// deposit, signature.
public fun claim<T>(
    registry: &Registry,
    session: &mut Session<T>,
    cumulative: u64,
    signature: vector<u8>,
    clock: &Clock,
    ctx: &mut TxContext,
) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(session.version == VERSION, EWrongVersion);
    assert!(clock.timestamp_ms() <= claim_deadline_ms(session), EClaimsOver);
    assert!(cumulative <= session.deposit, EExceedsDeposit);
    let msg = voucher_message(VOUCHER_DOMAIN, object::id(session), cumulative);
    assert!(ed25519::ed25519_verify(&signature, &session.voucher_key, &msg), EBadVoucherSignature);
    pay_claim(session, cumulative, ctx);
}

/// End the session: what was not claimed goes back to the pool and off the
/// grant's spending (and off its window's, if the window the session was
/// charged in is still the current one), and the session is deleted. The
/// payee at any time; anyone after the claim deadline. Works whether the
/// grant is paused, revoked or expired.
/// Checks, in order: registry version, session version, grant version, pool
/// version, grant, pool, claim deadline (unless the payee closes).
public fun close_session<T>(
    registry: &Registry,
    session: Session<T>,
    grant: &mut Grant,
    pool: &mut Pool<T>,
    clock: &Clock,
    ctx: &TxContext,
) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(session.version == VERSION, EWrongVersion);
    assert!(grant.version == VERSION, EWrongVersion);
    assert!(pool.version == VERSION, EWrongVersion);
    assert!(session.grant_id == object::id(grant), EWrongGrant);
    assert!(session.pool_id == object::id(pool), EWrongPool);
    let now = clock.timestamp_ms();
    assert!(ctx.sender() == session.payee || now > claim_deadline_ms(&session), ESessionLive);
    finish_close(session, grant, pool, now);
}

/// Claim against the delegate's final voucher (signed under
/// `FINAL_VOUCHER_DOMAIN`: the delegate is done with the session), then
/// close the session as `close_session` does. The payee or the session's operator, until the claim deadline.
/// Checks, in order: registry version, session version, grant version, pool
/// version, grant, pool, closer, claim deadline, deposit, signature.
public fun claim_and_close<T>(
    registry: &Registry,
    mut session: Session<T>,
    grant: &mut Grant,
    pool: &mut Pool<T>,
    cumulative: u64,
    signature: vector<u8>,
    clock: &Clock,
    ctx: &mut TxContext,
) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(session.version == VERSION, EWrongVersion);
    assert!(grant.version == VERSION, EWrongVersion);
    assert!(pool.version == VERSION, EWrongVersion);
    assert!(session.grant_id == object::id(grant), EWrongGrant);
    assert!(session.pool_id == object::id(pool), EWrongPool);
    assert!(ctx.sender() == session.payee || ctx.sender() == session.operator, ENotCloser);
    let now = clock.timestamp_ms();
    assert!(now <= claim_deadline_ms(&session), EClaimsOver);
    assert!(cumulative <= session.deposit, EExceedsDeposit);
    let msg = voucher_message(FINAL_VOUCHER_DOMAIN, object::id(&session), cumulative);
    assert!(ed25519::ed25519_verify(&signature, &session.voucher_key, &msg), EBadVoucherSignature);
    pay_claim(&mut session, cumulative, ctx);
    finish_close(session, grant, pool, now);
}

/// Bring the session's claim deadline forward to a grace from now (never
/// later than one already set), once the grant is paused or revoked: the
/// owner gets the rest back without waiting for the session's expiry, and
/// the payee still has the grace to claim. Grant owner only.
/// Checks, in order: registry version, session version, grant version,
/// grant, owner, grant paused or revoked.
public fun request_close<T>(
    registry: &Registry,
    session: &mut Session<T>,
    grant: &Grant,
    clock: &Clock,
    ctx: &TxContext,
) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(session.version == VERSION, EWrongVersion);
    assert!(grant.version == VERSION, EWrongVersion);
    assert!(session.grant_id == object::id(grant), EWrongGrant);
    assert!(ctx.sender() == grant.owner, ENotOwner);
    assert!(grant.paused || grant.revoked, EGrantActive);
    let close_at_ms = clock.timestamp_ms() + SESSION_GRACE_MS;
    if (session.close_at_ms == 0 || close_at_ms < session.close_at_ms) session.close_at_ms = close_at_ms;
    event::emit(SessionCloseRequested {
        session_id: object::id(session),
        grant_id: session.grant_id,
        close_at_ms: session.close_at_ms,
    });
}

// === Upgrades ===

/// Move the Registry to this package version: every call into an older
/// package version aborts from now on. AdminCap holder only.
public fun set_version(_: &AdminCap, registry: &mut Registry) {
    assert!(registry.version < VERSION, ENotUpgrade);
    registry.version = VERSION;
    event::emit(VersionSet { version: VERSION });
}

/// Move a pool made under an older package version to this one. Anyone: a
/// migration only rewrites the layout, never what the pool holds or allows.
public fun migrate_pool<T>(registry: &Registry, pool: &mut Pool<T>) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(pool.version < VERSION, ENotUpgrade);
    pool.version = VERSION;
}

/// Move a grant made under an older package version to this one. Anyone, as
/// for pools.
public fun migrate_grant(registry: &Registry, grant: &mut Grant) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(grant.version < VERSION, ENotUpgrade);
    grant.version = VERSION;
}

/// Move a session made under an older package version to this one. Anyone,
/// as for pools.
public fun migrate_session<T>(registry: &Registry, session: &mut Session<T>) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(session.version < VERSION, ENotUpgrade);
    session.version = VERSION;
}

// === Private ===

/// Shared by the pause and resume functions.
/// Checks, in order: registry version, grant version, owner, kind, revoked,
/// current pause state.
fun set_paused(registry: &Registry, grant: &mut Grant, kind: u8, paused: bool, ctx: &TxContext) {
    assert!(registry.version == VERSION, EWrongVersion);
    assert!(grant.version == VERSION, EWrongVersion);
    assert!(ctx.sender() == grant.owner, ENotOwner);
    assert!(grant.kind == kind, EWrongKind);
    assert!(!grant.revoked, ERevoked);
    if (paused) {
        assert!(!grant.paused, EAlreadyPaused);
    } else {
        assert!(grant.paused, ENotPaused);
    };
    grant.paused = paused;
    event::emit(GrantPauseSet {
        grant_id: object::id(grant),
        pool_id: grant.pool_id,
        owner: grant.owner,
        paused,
    });
}

/// A session's expiry is in the future, at most `SESSION_MAX_LIFETIME_MS`
/// away, and not past the grant's (when it has one).
fun valid_session_expiry(expiry_ms: u64, now: u64, grant_expiry_ms: u64): bool {
    expiry_ms > now && expiry_ms - now <= SESSION_MAX_LIFETIME_MS
        && (grant_expiry_ms == 0 || expiry_ms <= grant_expiry_ms)
}

/// The last clock time at which the session's vouchers may be claimed: a
/// grace after its expiry, or the deadline `request_close` set if earlier.
fun claim_deadline_ms<T>(session: &Session<T>): u64 {
    let deadline = session.expiry_ms + SESSION_GRACE_MS;
    if (session.close_at_ms != 0 && session.close_at_ms < deadline) session.close_at_ms else deadline
}

/// What a voucher's signature covers: `domain`, the session's id (32 bytes)
/// and the cumulative amount (u64, little-endian, as BCS writes it).
fun voucher_message(domain: vector<u8>, session_id: ID, cumulative: u64): vector<u8> {
    let mut msg = domain;
    msg.append(object::id_to_bytes(&session_id));
    msg.append(bcs::to_bytes(&cumulative));
    msg
}

/// Pay the payee what `cumulative` adds to what it was paid; nothing (and no
/// event) when it adds nothing. Shared by `claim` and `claim_and_close`,
/// after their checks.
fun pay_claim<T>(session: &mut Session<T>, cumulative: u64, ctx: &mut TxContext) {
    if (cumulative <= session.claimed) return;
    let amount = cumulative - session.claimed;
    transfer::public_transfer(coin::take(&mut session.balance, amount, ctx), session.payee);
    session.claimed = cumulative;
    event::emit(SessionClaimed {
        session_id: object::id(session),
        payee: session.payee,
        amount,
        claimed: cumulative,
    });
}

/// Give what the session holds back to the pool and the grant, and delete
/// it. Shared by `close_session` and `claim_and_close`, after their checks.
/// The window is not rolled: a refund only goes to the window the deposits
/// were charged in, while it is still the current one.
fun finish_close<T>(session: Session<T>, grant: &mut Grant, pool: &mut Pool<T>, now: u64) {
    let session_id = object::id(&session);
    let Session {
        id,
        version: _,
        grant_id,
        pool_id: _,
        owner: _,
        delegate: _,
        payee,
        operator: _,
        voucher_key: _,
        balance,
        deposit: _,
        claimed,
        expiry_ms: _,
        close_at_ms: _,
        window_start_ms,
        window_charged,
    } = session;
    let returned = balance.value();
    pool.balance.join(balance);
    // The deposits were added to `spent`, and `returned` is what is left of them.
    grant.spent = grant.spent - returned;
    if (
        grant.window.kind != WINDOW_NONE && grant.window.start_ms == window_start_ms
            && now < window_end_ms(&grant.window)
    ) {
        let refund = std::u64::min(std::u64::min(returned, window_charged), grant.window.spent);
        grant.window.spent = grant.window.spent - refund;
    };
    object::delete(id);
    event::emit(SessionClosed {
        session_id,
        grant_id,
        payee,
        claimed,
        returned,
        spent: grant.spent,
        window_spent: grant.window.spent,
    });
}

/// No window is all zeros; a fixed period lies in [MIN_PERIOD_MS,
/// MAX_PERIOD_MS]; a calendar month has no period; a window's limit is positive.
fun valid_window(kind: u8, period_ms: u64, limit: u64): bool {
    if (kind == WINDOW_NONE) return period_ms == 0 && limit == 0;
    if (limit == 0) return false;
    if (kind == WINDOW_PERIOD) return period_ms >= MIN_PERIOD_MS && period_ms <= MAX_PERIOD_MS;
    kind == WINDOW_CALENDAR_MONTH && period_ms == 0
}

/// When the window that began at `start_ms` ends.
fun window_end_ms(window: &Window): u64 {
    if (window.kind == WINDOW_CALENDAR_MONTH) month_start_ms(month_start_ms(window.start_ms) + 32 * DAY_MS)
    else window.start_ms + window.period_ms
}

/// Past the window's end, start the window holding `now` with nothing spent.
/// Fixed windows keep their phase: they start at whole periods after the first.
fun roll_window(window: &mut Window, now: u64) {
    if (now < window_end_ms(window)) return;
    window.start_ms = if (window.kind == WINDOW_CALENDAR_MONTH) month_start_ms(now)
    else window.start_ms + ((now - window.start_ms) / window.period_ms) * window.period_ms;
    window.spent = 0;
}

/// The first ms of the UTC calendar month holding `ms` (Howard Hinnant's
/// days-from-civil, in unsigned integers).
fun month_start_ms(ms: u64): u64 {
    let z = ms / DAY_MS + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let first_doy = (153 * mp + 2) / 5;
    (era * 146_097 + doe - (doy - first_doy) - 719_468) * DAY_MS
}

// === Test-only ===
//
// Read access and event constructors for the tests. They are test-only so
// that the published interface stays exactly the one described above.

#[test_only]
/// Publish the package in a test: shares the `Registry`, sends the `AdminCap` to the sender.
public fun init_for_testing(ctx: &mut TxContext) { init(ctx) }

#[test_only]
public fun registry_version(registry: &Registry): u64 { registry.version }

#[test_only]
/// The Registry as a newer (or older) package version left it, for the version gate.
public fun set_registry_version_for_testing(registry: &mut Registry, version: u64) { registry.version = version; }

#[test_only]
public fun pool_has_nonce<T>(pool: &Pool<T>, nonce: vector<u8>): bool { pool.nonces.contains(nonce) }

#[test_only]
public fun grant_recipients(grant: &Grant): vector<address> { grant.recipients }

#[test_only]
public fun grant_window_spent(grant: &Grant): u64 { grant.window.spent }

#[test_only]
public fun grant_window_start_ms(grant: &Grant): u64 { grant.window.start_ms }

#[test_only]
public fun window_for_testing(kind: u8, period_ms: u64, limit: u64, start_ms: u64, spent: u64): Window {
    Window { kind, period_ms, limit, start_ms, spent }
}

#[test_only]
public fun pool_version<T>(pool: &Pool<T>): u64 { pool.version }

#[test_only]
public fun grant_version(grant: &Grant): u64 { grant.version }

#[test_only]
/// An object as an older package version left it, for the version gate and `migrate_*`.
public fun set_pool_version_for_testing<T>(pool: &mut Pool<T>, version: u64) { pool.version = version; }

#[test_only]
public fun set_grant_version_for_testing(grant: &mut Grant, version: u64) { grant.version = version; }

#[test_only]
public fun pool_value<T>(pool: &Pool<T>): u64 { pool.balance.value() }

#[test_only]
public fun pool_owner<T>(pool: &Pool<T>): address { pool.owner }

#[test_only]
public fun grant_pool_id(grant: &Grant): ID { grant.pool_id }

#[test_only]
public fun grant_owner(grant: &Grant): address { grant.owner }

#[test_only]
public fun grant_delegate(grant: &Grant): address { grant.delegate }

#[test_only]
public fun grant_session_cap(grant: &Grant): u64 { grant.session_cap }

#[test_only]
public fun grant_spent(grant: &Grant): u64 { grant.spent }

#[test_only]
public fun grant_max_per_payment(grant: &Grant): u64 { grant.max_per_payment }

#[test_only]
public fun grant_expiry_ms(grant: &Grant): u64 { grant.expiry_ms }

#[test_only]
public fun grant_paused(grant: &Grant): bool { grant.paused }

#[test_only]
public fun grant_revoked(grant: &Grant): bool { grant.revoked }

#[test_only]
public fun grant_policy_ids(grant: &Grant): vector<u64> { grant.policy_ids }

#[test_only]
public fun grant_kind(grant: &Grant): u8 { grant.kind }

#[test_only]
/// Only `create_policy_grant` creates grants so far; this lets the tests
/// exercise the spend and open variants of pause and resume.
public fun set_kind_for_testing(grant: &mut Grant, kind: u8) { grant.kind = kind; }

#[test_only]
public fun pool_created_for_testing(pool_id: ID, owner: address, coin_type: String): PoolCreated {
    PoolCreated { pool_id, owner, coin_type }
}

#[test_only]
public fun deposited_for_testing(pool_id: ID, amount: u64): Deposited {
    Deposited { pool_id, amount }
}

#[test_only]
public fun grant_created_for_testing(
    grant_id: ID,
    nonce: vector<u8>,
    pool_id: ID,
    owner: address,
    delegate: address,
    coin_type: String,
    session_cap: u64,
    max_per_payment: u64,
    expiry_ms: u64,
    window: Window,
    recipients: vector<address>,
    policy_ids: vector<u64>,
): GrantCreated {
    GrantCreated {
        grant_id,
        nonce,
        pool_id,
        owner,
        delegate,
        coin_type,
        session_cap,
        max_per_payment,
        expiry_ms,
        window,
        recipients,
        policy_ids,
    }
}

#[test_only]
public fun grant_revoked_for_testing(grant_id: ID, pool_id: ID, owner: address): GrantRevoked {
    GrantRevoked { grant_id, pool_id, owner }
}

#[test_only]
public fun grant_pause_set_for_testing(
    grant_id: ID,
    pool_id: ID,
    owner: address,
    paused: bool,
): GrantPauseSet {
    GrantPauseSet { grant_id, pool_id, owner, paused }
}

#[test_only]
public fun payment_made_for_testing(
    grant_id: ID,
    pool_id: ID,
    delegate: address,
    recipient: address,
    amount: u64,
    spent: u64,
    window_spent: u64,
    memo: vector<u8>,
): PaymentMade {
    PaymentMade { grant_id, pool_id, delegate, recipient, amount, spent, window_spent, memo }
}

#[test_only]
public fun version_set_for_testing(version: u64): VersionSet { VersionSet { version } }

#[test_only]
public fun session_version<T>(session: &Session<T>): u64 { session.version }

#[test_only]
public fun set_session_version_for_testing<T>(session: &mut Session<T>, version: u64) { session.version = version; }

#[test_only]
public fun session_grant_id<T>(session: &Session<T>): ID { session.grant_id }

#[test_only]
public fun session_pool_id<T>(session: &Session<T>): ID { session.pool_id }

#[test_only]
public fun session_owner<T>(session: &Session<T>): address { session.owner }

#[test_only]
public fun session_delegate<T>(session: &Session<T>): address { session.delegate }

#[test_only]
public fun session_payee<T>(session: &Session<T>): address { session.payee }
#[test_only]
public fun session_operator<T>(session: &Session<T>): address { session.operator }

#[test_only]
public fun session_voucher_key<T>(session: &Session<T>): vector<u8> { session.voucher_key }

#[test_only]
public fun session_value<T>(session: &Session<T>): u64 { session.balance.value() }

#[test_only]
public fun session_deposit<T>(session: &Session<T>): u64 { session.deposit }

#[test_only]
public fun session_claimed<T>(session: &Session<T>): u64 { session.claimed }

#[test_only]
public fun session_expiry_ms<T>(session: &Session<T>): u64 { session.expiry_ms }

#[test_only]
public fun session_close_at_ms<T>(session: &Session<T>): u64 { session.close_at_ms }

#[test_only]
public fun session_window_start_ms<T>(session: &Session<T>): u64 { session.window_start_ms }

#[test_only]
public fun session_window_charged<T>(session: &Session<T>): u64 { session.window_charged }

#[test_only]
/// The bytes a voucher for `cumulative` signs (`is_final`: under `FINAL_VOUCHER_DOMAIN`), as `claim` checks them.
public fun voucher_message_for_testing(session_id: ID, cumulative: u64, is_final: bool): vector<u8> {
    voucher_message(if (is_final) FINAL_VOUCHER_DOMAIN else VOUCHER_DOMAIN, session_id, cumulative)
}

#[test_only]
public fun session_opened_for_testing(
    session_id: ID,
    grant_id: ID,
    pool_id: ID,
    delegate: address,
    payee: address,
    operator: address,
    coin_type: String,
    voucher_key: vector<u8>,
    deposit: u64,
    expiry_ms: u64,
    spent: u64,
    window_spent: u64,
): SessionOpened {
    SessionOpened {
        session_id,
        grant_id,
        pool_id,
        delegate,
        payee,
        operator,
        coin_type,
        voucher_key,
        deposit,
        expiry_ms,
        spent,
        window_spent,
    }
}

#[test_only]
public fun session_topped_up_for_testing(
    session_id: ID,
    grant_id: ID,
    amount: u64,
    deposit: u64,
    spent: u64,
    window_spent: u64,
): SessionToppedUp {
    SessionToppedUp { session_id, grant_id, amount, deposit, spent, window_spent }
}

#[test_only]
public fun session_claimed_for_testing(session_id: ID, payee: address, amount: u64, claimed: u64): SessionClaimed {
    SessionClaimed { session_id, payee, amount, claimed }
}

#[test_only]
public fun session_closed_for_testing(
    session_id: ID,
    grant_id: ID,
    payee: address,
    claimed: u64,
    returned: u64,
    spent: u64,
    window_spent: u64,
): SessionClosed {
    SessionClosed { session_id, grant_id, payee, claimed, returned, spent, window_spent }
}

#[test_only]
public fun session_close_requested_for_testing(session_id: ID, grant_id: ID, close_at_ms: u64): SessionCloseRequested {
    SessionCloseRequested { session_id, grant_id, close_at_ms }
}
