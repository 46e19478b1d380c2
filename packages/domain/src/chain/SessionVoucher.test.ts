import { describe, expect, it } from "@effect/vitest"
import { claimDeadlineMs, FINAL_VOUCHER_DOMAIN, SESSION_GRACE_MS, VOUCHER_DOMAIN, voucherMessage } from "./SessionVoucher.ts"

const SESSION = `0x${"0102030405060708".repeat(4)}`

describe("voucherMessage", () => {
  it("is the domain tag, the session id's 32 bytes and the amount as a little-endian u64: 57 bytes", () => {
    const message = voucherMessage(SESSION, 0x0102n)
    expect(message.length).toBe(17 + 32 + 8)
    expect(new TextDecoder().decode(message.slice(0, 17))).toBe(VOUCHER_DOMAIN)
    expect(Buffer.from(message.slice(17, 49)).toString("hex")).toBe(SESSION.slice(2))
    expect([...message.slice(49)]).toEqual([0x02, 0x01, 0, 0, 0, 0, 0, 0])
  })

  it("signs another tag for a final voucher, so a voucher never closes a session and a final one never pays without closing", () => {
    const final = voucherMessage(SESSION, 7n, true)
    expect(new TextDecoder().decode(final.slice(0, FINAL_VOUCHER_DOMAIN.length))).toBe(FINAL_VOUCHER_DOMAIN)
    expect(Buffer.from(final).equals(Buffer.from(voucherMessage(SESSION, 7n)))).toBe(false)
  })
})

describe("claimDeadlineMs", () => {
  it("is a grace after the expiry, or the owner's close request when that is earlier, as the module's claim_deadline_ms", () => {
    expect(claimDeadlineMs({ expiryMs: 1_000n, closeAtMs: 0n })).toBe(1_000n + SESSION_GRACE_MS)
    expect(claimDeadlineMs({ expiryMs: 1_000n, closeAtMs: 500n })).toBe(500n)
    expect(claimDeadlineMs({ expiryMs: 1_000n, closeAtMs: 1_000n + SESSION_GRACE_MS + 1n })).toBe(1_000n + SESSION_GRACE_MS)
  })
})
