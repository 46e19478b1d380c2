import { assert, describe, it } from "@effect/vitest"
import { fromBase64, toBase64 } from "@mysten/sui/utils"
import { Effect } from "effect"
import type { ChainEvent, ChainTransaction } from "../chain/ChainTransaction.ts"
import { WindowKind } from "../chain/GrantWindow.ts"
import { type EventName, Events, eventType, type FunctionName, nonceBytes, type SpendAccountPackage, typeNameOf } from "../chain/SpendAccountModule.ts"
import { verifyGrantCreated } from "./GrantCreatedVerifier.ts"
import { verifyGrantPauseSet } from "./GrantPauseSetVerifier.ts"
import { verifyGrantRevoked } from "./GrantRevokedVerifier.ts"
import { memoOf, verifyPayment } from "./PaymentVerifier.ts"

// === Helpers ===

const addr = (n: number) => `0x${n.toString(16).padStart(64, "0")}`
const PKG = addr(0x5e4d)
/** The package before any upgrade: calls and types under one id. */
const PACKAGE: SpendAccountPackage = { originalId: PKG, publishedAt: PKG, registryId: addr(0x5e4e) }
const GRANT_ID = "g_01HZX3M5N8Q2R4T6V8W0Y2Z4A6"
const OWNER = addr(1)
const DELEGATE = addr(2)
const POOL = addr(3)
const GRANT = addr(4)
const RECIPIENT = addr(5)
const OTHER = addr(0x99)
const SUI = "0x2::sui::SUI"

/** An event as the chain reports it: its BCS contents, serialized with the module's own layout. */
const event = <T>(name: EventName, layout: { serialize: (v: T) => { toBytes: () => Uint8Array } }, value: T, sender = OWNER): ChainEvent => ({
  type: eventType(PKG, name),
  sender,
  parsedJson: {},
  bcs: toBase64(layout.serialize(value).toBytes())
})

/** A final, successful transaction by `sender` calling `fn` and emitting `events`. */
const tx = (fn: FunctionName, events: ReadonlyArray<ChainEvent>, sender = OWNER): ChainTransaction => ({
  digest: "8mJkyEh6gkWA1sWcYjBTUGcqKpEqzGJQnNaFyBrEZ2n9",
  sender,
  status: "success",
  error: null,
  checkpoint: "7",
  timestampMs: "1000",
  calls: [{ package: PKG, module: "spend_account", function: fn, typeArguments: [], arguments: [] }],
  events
})

/** Runs a verifier that must fail, and answers its error's code and reason. */
const refusal = <A, E extends { readonly code: string; readonly reason: string }>(self: Effect.Effect<A, E>) => {
  const error = Effect.runSync(Effect.flip(self))
  return { code: error.code, reason: error.reason }
}

const assertUnverified = (got: { code: string; reason: string }, field: string) => {
  assert.strictEqual(got.code, "UNVERIFIED")
  assert.isTrue(got.reason.startsWith(`${field}: `), `reason "${got.reason}" must start with "${field}: "`)
}

/** The three checks every verifier makes first, in order: final, sent by whom it must be, succeeded. */
const commonRefusals = (verify: (t: ChainTransaction) => Effect.Effect<unknown, { readonly code: string; readonly reason: string }>, valid: ChainTransaction) => {
  it("is NOT_FINAL without a checkpoint", () => {
    assert.deepStrictEqual(refusal(verify({ ...valid, checkpoint: null })), { code: "NOT_FINAL", reason: "not_checkpointed" })
  })
  it("is FOREIGN_DIGEST when sent by someone else", () => {
    const got = refusal(verify({ ...valid, sender: OTHER }))
    assert.strictEqual(got.code, "FOREIGN_DIGEST")
    assert.strictEqual(got.reason, `sender: expected ${valid.sender}, got ${OTHER}`)
  })
  it("is TX_FAILED, with the chain's error, when the transaction failed", () => {
    const error = "MoveAbort(spend_account::pay, 3) EPaused"
    assert.deepStrictEqual(refusal(verify({ ...valid, status: "failure", error, events: [] })), { code: "TX_FAILED", reason: error })
  })
  it("checks finality before the sender, and the sender before the status", () => {
    assert.strictEqual(refusal(verify({ ...valid, checkpoint: null, sender: OTHER, status: "failure" })).code, "NOT_FINAL")
    assert.strictEqual(refusal(verify({ ...valid, sender: OTHER, status: "failure" })).code, "FOREIGN_DIGEST")
  })
}

// === create_policy_grant ===

const created = {
  grant_id: GRANT,
  nonce: Array.from(nonceBytes(GRANT_ID)),
  pool_id: POOL,
  owner: OWNER,
  delegate: DELEGATE,
  coin_type: typeNameOf(SUI),
  session_cap: 1000n,
  max_per_payment: 100n,
  expiry_ms: 5_000n,
  window: { kind: Number(WindowKind.period), period_ms: 86_400_000n, limit: 500n, start_ms: 1_000n, spent: 0n },
  recipients: [RECIPIENT, addr(0x77)],
  policy_ids: [1n, 2n]
}
const expectedGrant = {
  pkg: PACKAGE,
  grantId: GRANT_ID,
  owner: OWNER,
  delegate: DELEGATE,
  poolId: POOL,
  coinType: SUI,
  sessionCap: 1000n,
  maxPerPayment: 100n,
  expiryMs: 5_000n,
  window: { kind: WindowKind.period, periodMs: 86_400_000n, limit: 500n } as const,
  recipients: [addr(0x77), RECIPIENT],
  policyIds: [2n, 1n]
}
const grantCreated = (fields: Partial<typeof created> = {}) => event("GrantCreated", Events.GrantCreated, { ...created, ...fields })
const createTx = (fields: Partial<typeof created> = {}) => tx("create_policy_grant", [grantCreated(fields)])
const verifyCreate = (t: ChainTransaction) => verifyGrantCreated(expectedGrant, t)

describe("GrantCreated verifier", () => {
  it("accepts the prepared grant and binds its object id", () => {
    assert.deepStrictEqual(Effect.runSync(verifyCreate(createTx())), { grantObjectId: GRANT })
  })

  commonRefusals(verifyCreate, createTx())

  it("is UNVERIFIED on target without a create_policy_grant call", () => {
    assertUnverified(refusal(verifyCreate({ ...createTx(), calls: [] })), "target")
    const otherFunction = tx("revoke_grant", [grantCreated()])
    assertUnverified(refusal(verifyCreate(otherFunction)), "target")
    const otherPackage = createTx()
    const calls = otherPackage.calls.map((c) => ({ ...c, package: OTHER }))
    assertUnverified(refusal(verifyCreate({ ...otherPackage, calls })), "target")
  })

  const tampered: ReadonlyArray<readonly [string, Partial<typeof created>]> = [
    ["pool", { pool_id: addr(0x98) }],
    ["owner", { owner: addr(0x97) }],
    ["delegate", { delegate: addr(0x96) }],
    ["coin_type", { coin_type: `${"0".repeat(63)}9::usd::USD` }],
    ["session_cap", { session_cap: 1001n }],
    ["max_per_payment", { max_per_payment: 101n }],
    ["expiry", { expiry_ms: 0n }],
    ["window", { window: { ...created.window, limit: 501n } }],
    ["window", { window: { ...created.window, period_ms: 3_600_000n } }],
    ["window", { window: { kind: WindowKind.none, period_ms: 0n, limit: 0n, start_ms: 0n, spent: 0n } }],
    ["recipients", { recipients: [RECIPIENT] }],
    ["recipients", { recipients: [] }],
    ["recipients", { recipients: [RECIPIENT, addr(0x78)] }],
    ["policy set", { policy_ids: [1n] }],
    ["policy set", { policy_ids: [1n, 2n, 3n] }],
    ["nonce", { nonce: Array.from(nonceBytes("g_another")) }]
  ]
  for (const [field, fields] of tampered) {
    it(`is UNVERIFIED on ${field} when only ${Object.keys(fields).join(", ")} differs`, () => {
      assertUnverified(refusal(verifyCreate(createTx(fields))), field)
    })
  }

  it("is UNVERIFIED on event when the GrantCreated is missing, or there are two", () => {
    assert.deepStrictEqual(refusal(verifyCreate(tx("create_policy_grant", []))), { code: "UNVERIFIED", reason: "event: missing GrantCreated" })
    assert.deepStrictEqual(
      refusal(verifyCreate(tx("create_policy_grant", [grantCreated(), grantCreated({ grant_id: addr(0x44) })]))),
      { code: "UNVERIFIED", reason: "event: more than one GrantCreated" }
    )
  })

  it("accepts, after an upgrade, a call to the published-at id whose event keeps the original id", () => {
    const upgraded: SpendAccountPackage = { ...PACKAGE, publishedAt: addr(0x5e4f) }
    const created = createTx()
    const calls = created.calls.map((c) => ({ ...c, package: upgraded.publishedAt }))
    assert.strictEqual(created.events[0]?.type, eventType(PKG, "GrantCreated"))
    assert.deepStrictEqual(Effect.runSync(verifyGrantCreated({ ...expectedGrant, pkg: upgraded }, { ...created, calls })), { grantObjectId: GRANT })
    // An event typed under the published-at id is not the package's: types keep the original id.
    const misplaced = { ...grantCreated(), type: eventType(upgraded.publishedAt, "GrantCreated") }
    assert.deepStrictEqual(
      refusal(verifyGrantCreated({ ...expectedGrant, pkg: upgraded }, { ...tx("create_policy_grant", [misplaced]), calls })),
      { code: "UNVERIFIED", reason: "event: missing GrantCreated" }
    )
  })

  it("ignores a GrantCreated of the same name from another package", () => {
    const foreign = { ...grantCreated(), type: eventType(OTHER, "GrantCreated") }
    assert.deepStrictEqual(refusal(verifyCreate(tx("create_policy_grant", [foreign]))), { code: "UNVERIFIED", reason: "event: missing GrantCreated" })
  })
})

// === revoke_grant ===

const revoked = (grant = GRANT) => event("GrantRevoked", Events.GrantRevoked, { grant_id: grant, pool_id: POOL, owner: OWNER })
const expectedRevoke = { pkg: PACKAGE, owner: OWNER, grantObjectId: GRANT }
const verifyRevoke = (t: ChainTransaction) => verifyGrantRevoked(expectedRevoke, t)

describe("GrantRevoked verifier", () => {
  it("accepts a GrantRevoked for the expected grant", () => {
    assert.deepStrictEqual(Effect.runSync(verifyRevoke(tx("revoke_grant", [revoked()]))), {})
  })

  commonRefusals(verifyRevoke, tx("revoke_grant", [revoked()]))

  it("is UNVERIFIED on target without a revoke_grant call", () => {
    assertUnverified(refusal(verifyRevoke(tx("pause_grant", [revoked()]))), "target")
  })

  it("is UNVERIFIED on grant id when the event names another grant, or none is emitted", () => {
    assertUnverified(refusal(verifyRevoke(tx("revoke_grant", [revoked(addr(0x77))]))), "grant id")
    assertUnverified(refusal(verifyRevoke(tx("revoke_grant", []))), "grant id")
  })

  it("is UNVERIFIED on event when the grant is revoked twice in one transaction", () => {
    assert.deepStrictEqual(refusal(verifyRevoke(tx("revoke_grant", [revoked(), revoked()]))), {
      code: "UNVERIFIED",
      reason: "event: more than one GrantRevoked"
    })
  })
})

// === pause_grant / resume_grant ===

const pauseSet = (paused: boolean, grant = GRANT, owner = OWNER) =>
  event("GrantPauseSet", Events.GrantPauseSet, { grant_id: grant, pool_id: POOL, owner, paused })
const verifyPause = (paused: boolean) => (t: ChainTransaction) => verifyGrantPauseSet({ pkg: PACKAGE, owner: OWNER, grantObjectId: GRANT, paused }, t)

describe("GrantPauseSet verifier", () => {
  it("accepts a pause and a resume of the expected grant, whichever grant kind's function was called", () => {
    assert.deepStrictEqual(Effect.runSync(verifyPause(true)(tx("pause_grant", [pauseSet(true)]))), {})
    assert.deepStrictEqual(Effect.runSync(verifyPause(true)(tx("pause_open_grant", [pauseSet(true)]))), {})
    assert.deepStrictEqual(Effect.runSync(verifyPause(false)(tx("resume_grant", [pauseSet(false)]))), {})
    assert.deepStrictEqual(Effect.runSync(verifyPause(false)(tx("resume_spend_grant", [pauseSet(false)]))), {})
  })

  commonRefusals(verifyPause(true), tx("pause_grant", [pauseSet(true)]))

  it("is UNVERIFIED on target when a resume is offered as a pause, and the other way round", () => {
    assertUnverified(refusal(verifyPause(true)(tx("resume_grant", [pauseSet(true)]))), "target")
    assertUnverified(refusal(verifyPause(false)(tx("pause_grant", [pauseSet(false)]))), "target")
  })

  it("is UNVERIFIED on grant id when the event names another grant", () => {
    assertUnverified(refusal(verifyPause(true)(tx("pause_grant", [pauseSet(true, addr(0x77))]))), "grant id")
    assertUnverified(refusal(verifyPause(false)(tx("resume_grant", [pauseSet(false, addr(0x77))]))), "grant id")
  })

  it("is UNVERIFIED on paused flag when the event sets the other state", () => {
    assert.deepStrictEqual(refusal(verifyPause(true)(tx("pause_grant", [pauseSet(false)]))), {
      code: "UNVERIFIED",
      reason: "paused flag: expected true, got false"
    })
    assert.deepStrictEqual(refusal(verifyPause(false)(tx("resume_grant", [pauseSet(true)]))), {
      code: "UNVERIFIED",
      reason: "paused flag: expected false, got true"
    })
  })

  it("is UNVERIFIED on owner when the event names another owner", () => {
    assertUnverified(refusal(verifyPause(true)(tx("pause_grant", [pauseSet(true, GRANT, OTHER)]))), "owner")
  })

  it("is UNVERIFIED on event when the grant is paused twice in one transaction", () => {
    assert.deepStrictEqual(refusal(verifyPause(true)(tx("pause_grant", [pauseSet(true), pauseSet(true)]))), {
      code: "UNVERIFIED",
      reason: "event: more than one GrantPauseSet"
    })
  })
})

// === pay ===

const paymentMade = (fields: Partial<{ amount: bigint; recipient: string; memo: Array<number>; delegate: string }> = {}) =>
  event("PaymentMade", Events.PaymentMade, {
    grant_id: GRANT,
    pool_id: POOL,
    delegate: DELEGATE,
    recipient: RECIPIENT,
    amount: 40n,
    spent: 40n,
    window_spent: 0n,
    memo: Array.from(memoOf("nonce-1")),
    ...fields
  }, DELEGATE)
const payTx = (fields: Parameters<typeof paymentMade>[0] = {}, sender = DELEGATE) => tx("pay", [paymentMade(fields)], sender)
const verifyPay = (t: ChainTransaction) => verifyPayment({ pkg: PACKAGE, amount: 40n, recipient: RECIPIENT, nonce: "nonce-1" }, t)

describe("payment verifier", () => {
  it("accepts the challenge's payment and names the grant it came from", () => {
    assert.deepStrictEqual(Effect.runSync(verifyPay(payTx())), { grantObjectId: GRANT, poolId: POOL, delegate: DELEGATE, amount: 40n })
  })

  it("is NOT_FINAL without a checkpoint, TX_FAILED when it failed", () => {
    assert.strictEqual(refusal(verifyPay({ ...payTx(), checkpoint: null })).code, "NOT_FINAL")
    assert.strictEqual(refusal(verifyPay({ ...payTx(), status: "failure", error: "MoveAbort(spend_account::pay, 3) EPaused", events: [] })).code, "TX_FAILED")
  })

  it("is FOREIGN_DIGEST when the sender is not the delegate the event names", () => {
    assert.strictEqual(refusal(verifyPay(payTx({}, OTHER))).code, "FOREIGN_DIGEST")
    assert.strictEqual(refusal(verifyPay(payTx({ delegate: OTHER }))).code, "FOREIGN_DIGEST")
  })

  it("is UNVERIFIED on amount, recipient and memo, one field at a time", () => {
    assertUnverified(refusal(verifyPay(payTx({ amount: 39n }))), "amount")
    assertUnverified(refusal(verifyPay(payTx({ recipient: OTHER }))), "recipient")
    assertUnverified(refusal(verifyPay(payTx({ memo: Array.from(memoOf("nonce-2")) }))), "memo")
  })

  it("is UNVERIFIED on target without a pay call, and on event without exactly one PaymentMade", () => {
    assertUnverified(refusal(verifyPay(tx("deposit", [paymentMade()], DELEGATE))), "target")
    assert.deepStrictEqual(refusal(verifyPay(tx("pay", [], DELEGATE))), { code: "UNVERIFIED", reason: "event: missing PaymentMade" })
    assert.deepStrictEqual(refusal(verifyPay(tx("pay", [paymentMade(), paymentMade()], DELEGATE))), {
      code: "UNVERIFIED",
      reason: "event: more than one PaymentMade"
    })
  })
})

// === malformed events ===

/** The event with its BCS contents cut short, as a broken or lying node could report it. */
const truncated = (e: ChainEvent): ChainEvent => ({ ...e, bcs: toBase64(fromBase64(e.bcs).slice(0, 10)) })

describe("every verifier, given an event of the module that does not decode", () => {
  const cases: ReadonlyArray<readonly [string, EventName, (t: ChainTransaction) => Effect.Effect<unknown, { readonly code: string; readonly reason: string }>, ChainTransaction]> = [
    ["a GrantCreated", "GrantCreated", verifyCreate, tx("create_policy_grant", [truncated(grantCreated())])],
    ["a GrantCreated beside a good one", "GrantCreated", verifyCreate, tx("create_policy_grant", [grantCreated(), truncated(grantCreated())])],
    ["an empty GrantRevoked", "GrantRevoked", verifyRevoke, tx("revoke_grant", [{ ...revoked(), bcs: "" }])],
    ["a GrantPauseSet", "GrantPauseSet", verifyPause(true), tx("pause_grant", [truncated(pauseSet(true))])],
    ["a PaymentMade", "PaymentMade", verifyPay, tx("pay", [truncated(paymentMade())], DELEGATE)],
    ["another module event beside a good PaymentMade", "Deposited", verifyPay, tx("pay", [paymentMade(), { ...truncated(paymentMade()), type: eventType(PKG, "Deposited") }], DELEGATE)]
  ]
  for (const [what, name, verify, t] of cases) {
    it(`is UNVERIFIED on event, not a defect, for ${what}`, () => {
      assert.deepStrictEqual(refusal(verify(t)), { code: "UNVERIFIED", reason: `event: malformed ${name}` })
    })
  }
})
