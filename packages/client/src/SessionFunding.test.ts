import { assert, describe, it } from "@effect/vitest"
import { type SessionRoom, sessionTerms } from "./SessionFunding.ts"

const NOW = 1_800_000_000_000n
const DAY = 86_400_000n
const PAYEE = "0x" + "b".repeat(64)
const room = (changes: Partial<SessionRoom> = {}): SessionRoom => ({
  chainNowMs: NOW,
  budgetLeft: 10_000n,
  windowLeft: undefined,
  poolBalance: 1_000_000n,
  grantExpiryMs: 0n,
  paused: false,
  revoked: false,
  recipients: [],
  ...changes
})
const terms = (r: SessionRoom, calls = 100) => sessionTerms(r, { price: 40n, calls, payee: PAYEE, minRemainingMs: 120_000n })

describe("a new session's deposit and expiry", () => {
  it("deposit = calls × price within the budget, the window and the pool; expiry a day away or the grant's", () => {
    assert.deepStrictEqual(terms(room()), { _tag: "Open", deposit: 4_000n, expiryMs: NOW + DAY })
    assert.deepStrictEqual(terms(room({ budgetLeft: 1_000n })), { _tag: "Open", deposit: 1_000n, expiryMs: NOW + DAY })
    assert.deepStrictEqual(terms(room({ windowLeft: 400n })), { _tag: "Open", deposit: 400n, expiryMs: NOW + DAY })
    assert.deepStrictEqual(terms(room({ poolBalance: 80n })), { _tag: "Open", deposit: 80n, expiryMs: NOW + DAY })
    assert.deepStrictEqual(terms(room({ grantExpiryMs: NOW + 3_600_000n })), { _tag: "Open", deposit: 4_000n, expiryMs: NOW + 3_600_000n })
  })

  it("refuses what the grant would refuse, or a session that could not pay one call or would expire before use", () => {
    const reason = (r: SessionRoom) => {
      const t = terms(r)
      return t._tag === "Refused" ? t.reason.split(":")[0] : "open"
    }
    assert.strictEqual(reason(room({ windowLeft: 39n })), "budget")
    assert.strictEqual(reason(room({ budgetLeft: 0n })), "budget")
    assert.strictEqual(reason(room({ grantExpiryMs: NOW + 60_000n })), "expiry")
    assert.strictEqual(reason(room({ paused: true })), "grant")
    assert.strictEqual(reason(room({ revoked: true })), "grant")
    assert.strictEqual(reason(room({ recipients: ["0x" + "c".repeat(64)] })), "recipient")
    assert.strictEqual(reason(room({ recipients: [PAYEE] })), "open")
  })
})
