import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import { aggregate, apply, type Transition, Transitions, viewStatus } from "./SignerStateMachine.ts"
import { GrantStatus, type GrantViewStatus } from "./SignerStatus.ts"

const grantStatus = fc.constantFrom(...GrantStatus.literals)
const viewed = fc.constantFrom<GrantViewStatus>(...GrantStatus.literals, "expired")

describe("SignerStateMachine", () => {
  it("walks the spec's lifecycle", () => {
    const walk: ReadonlyArray<[Transition, string]> = [
      ["finalizeCreate", "active"],
      ["preparePause", "pausing"],
      ["finalizePause", "paused"],
      ["prepareResume", "paused"],
      ["finalizeResume", "active"],
      ["prepareRevoke", "revoking"],
      ["finalizeRevoke", "revoked"]
    ]
    let status: GrantStatus = "pending"
    for (const [transition, expected] of walk) {
      const next = apply(transition, status)
      expect(next, transition).toBe(expected)
      status = next ?? status
    }
  })

  it("refuses every transition out of revoked and out of failed: both are terminal", () => {
    for (const transition of Object.keys(Transitions) as Array<Transition>) {
      expect(apply(transition, "revoked")).toBeUndefined()
      expect(apply(transition, "failed")).toBeUndefined()
    }
  })

  it("fails a pending grant whose create failed, or that was abandoned, and nothing else", () => {
    for (const status of GrantStatus.literals) {
      expect(apply("failCreate", status)).toBe(status === "pending" ? "failed" : undefined)
      expect(apply("abandon", status)).toBe(status === "pending" ? "failed" : undefined)
    }
  })

  it("a verified create activates only a pending grant", () => {
    for (const status of GrantStatus.literals) {
      expect(apply("finalizeCreate", status), status).toBe(status === "pending" ? "active" : undefined)
    }
  })

  it("derives the aggregate statuses of the spec", () => {
    expect(aggregate(["pending", "pending"])).toBe("awaiting_owner_signature")
    expect(aggregate(["active", "pending"])).toBe("partially_active")
    expect(aggregate(["active", "active"])).toBe("active")
    expect(aggregate(["revoking", "revoking"])).toBe("revoking")
    expect(aggregate(["revoked", "revoking"])).toBe("partially_revoked")
    expect(aggregate(["revoked", "revoked"])).toBe("revoked")
    expect(aggregate(["revoked", "failed"])).toBe("revoked")
    expect(aggregate(["pausing", "pausing"])).toBe("pausing")
    expect(aggregate(["pausing", "paused"])).toBe("pausing")
    expect(aggregate(["paused", "paused"])).toBe("paused")
    expect(aggregate(["paused", "active"])).toBe("partially_active")
    expect(aggregate(["failed", "failed"])).toBe("failed")
    expect(aggregate(["expired", "expired"])).toBe("expired")
    expect(aggregate(["expired", "active"])).toBe("active")
  })

  it("says what can pay: a pause never hides an active grant, and a pending one cannot pay", () => {
    expect(aggregate(["pausing", "active"])).toBe("partially_active")
    expect(aggregate(["paused", "active"])).toBe("partially_active")
    expect(aggregate(["paused", "pending"])).toBe("paused")
    expect(aggregate(["pausing", "pending"])).toBe("pausing")
    fc.assert(
      fc.property(fc.array(viewed, { minLength: 1, maxLength: 6 }), (grants) => {
        const status = aggregate(grants)
        if (status === "paused" || status === "pausing" || status === "awaiting_owner_signature") {
          expect(grants.includes("active")).toBe(false)
        }
      }),
      { seed: 7 }
    )
  })

  it("reads a live grant past its expiry as expired, and never a terminal one", () => {
    fc.assert(
      fc.property(grantStatus, fc.bigInt({ min: 1n, max: 10n ** 15n }), fc.integer({ min: 0, max: 10 ** 15 }), (s, expiry, now) => {
        const view = viewStatus(s, expiry, now)
        if (s === "revoked" || s === "failed") expect(view).toBe(s)
        else expect(view).toBe(BigInt(now) >= expiry ? "expired" : s)
        expect(viewStatus(s, 0n, now)).toBe(s)
      }),
      { seed: 5 }
    )
  })

  it("an aggregate is revoked only when no grant can still spend", () => {
    fc.assert(
      fc.property(fc.array(viewed, { minLength: 1, maxLength: 6 }), (grants) => {
        const status = aggregate(grants)
        if (status === "revoked" || status === "failed" || status === "expired") {
          expect(grants.every((g) => g === "revoked" || g === "failed" || g === "expired")).toBe(true)
        }
        if (status === "active") expect(grants.some((g) => g === "active")).toBe(true)
      }),
      { seed: 6 }
    )
  })
})
