import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import type { PaymentSession, SessionGrantView } from "./PaymentSession.ts"
import { SESSION_MIN_REMAINING_MS } from "./SessionOffer.ts"
import { checkVoucher, type VoucherCheck } from "./SessionVoucherCheck.ts"

const PAYEE = `0x${"a".repeat(64)}`
const SUI = "0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI"
const NOW = 1_000_000n

const session: PaymentSession = {
  sessionId: `0x${"5".repeat(64)}`,
  grantObjectId: `0x${"6".repeat(64)}`,
  payee: PAYEE,
  coinType: SUI,
  deposit: 1_000n,
  expiryMs: NOW + 3_600_000n,
  closeAtMs: 0n,
  charged: 300n,
  claimed: 0n,
  state: "open"
}
const grant: SessionGrantView = { paused: false, revoked: false, maxPerPayment: 100n }
const terms = { payTo: PAYEE, asset: SUI, price: 40n }

const reasonOf = (c: VoucherCheck) => (c.ok ? "ok" : c.refusal.reason)

describe("checkVoucher", () => {
  it("accepts a voucher grown by at least the price, within the deposit, on an open session far from its expiry", () => {
    expect(checkVoucher(session, grant, terms, 340n, NOW)).toEqual({ ok: true })
    expect(checkVoucher(session, grant, terms, 1_000n, NOW)).toEqual({ ok: true })
  })

  it("refuses each broken term with its own reason", () => {
    expect(reasonOf(checkVoucher({ ...session, payee: `0x${"b".repeat(64)}` }, grant, terms, 340n, NOW))).toBe("session_for_another_payee")
    expect(reasonOf(checkVoucher({ ...session, coinType: "0x3::usdc::USDC" }, grant, terms, 340n, NOW))).toBe("session_in_another_asset")
    expect(reasonOf(checkVoucher({ ...session, state: "closing" }, grant, terms, 340n, NOW))).toBe("session_closed")
    expect(reasonOf(checkVoucher(session, { ...grant, revoked: true }, terms, 340n, NOW))).toBe("grant_revoked")
    expect(reasonOf(checkVoucher(session, { ...grant, paused: true }, terms, 340n, NOW))).toBe("grant_paused")
    expect(reasonOf(checkVoucher({ ...session, closeAtMs: NOW + 1n }, grant, terms, 340n, NOW))).toBe("session_closing")
    expect(reasonOf(checkVoucher({ ...session, expiryMs: NOW + SESSION_MIN_REMAINING_MS - 1n }, grant, terms, 340n, NOW))).toBe("session_near_expiry")
    expect(reasonOf(checkVoucher(session, { ...grant, maxPerPayment: 39n }, terms, 340n, NOW))).toBe("price_above_max_per_payment")
    expect(reasonOf(checkVoucher(session, grant, terms, 300n, NOW))).toBe("voucher_already_used")
    expect(reasonOf(checkVoucher(session, grant, terms, 339n, NOW))).toBe("voucher_below_price")
    expect(reasonOf(checkVoucher(session, grant, terms, 1_001n, NOW))).toBe("voucher_above_deposit")
  })

  it("never accepts a voucher that does not pay the price within the deposit (property)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10_000n }),
        fc.bigInt({ min: 0n, max: 10_000n }),
        fc.bigInt({ min: 1n, max: 500n }),
        fc.bigInt({ min: 0n, max: 12_000n }),
        (charged, deposit, price, cumulative) => {
          const check = checkVoucher({ ...session, charged, deposit }, { ...grant, maxPerPayment: 500n }, { ...terms, price }, cumulative, NOW)
          const pays = cumulative - charged >= price && cumulative <= deposit
          expect(check.ok).toBe(pays)
        }
      )
    )
  })
})
