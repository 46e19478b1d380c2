import { toHex } from "@mysten/sui/utils"
import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import type { ChainTransaction } from "../chain/ChainTransaction.ts"
import { WindowKind } from "../chain/GrantWindow.ts"
import { nonceBytes, type SpendAccountPackage } from "../chain/SpendAccountModule.ts"
import { AtomicAmount } from "../Amount.ts"
import { CoinType } from "../CoinType.ts"
import type { DelegatedSigner } from "../DelegatedSigner.ts"
import type { Grant } from "../Grant.ts"
import { DelegatedSignerId, GrantId } from "../Ids.ts"
import type { GrantStatus } from "../SignerStatus.ts"
import { NO_STORED_WINDOW } from "../SpendingWindow.ts"
import { ObjectId, SuiAddress } from "../SuiAddress.ts"
import { isCreateOf } from "../verify/CreateCall.ts"
import { applyDecision, decideFinalize, decideRecorded, type DigestRecord, digestRecordFor, type FinalizeStep } from "./DecideFinalize.ts"
import { planPrepare } from "./PlanPrepare.ts"
import { grantStatusAt, statusAt, viewOf, windowedGrantObjects } from "./SignerView.ts"

const HOUR = 3_600_000
const CREATED = 1_000_000
const at = (nowMs: number) => ({ nowMs, pendingTtlMs: 24 * HOUR })
const hex = (n: number) => `0x${n.toString(16).padStart(64, "0")}`
const grantId = (n: number) => GrantId.make(`g_${String(n).padStart(26, "0")}`)

const grant = (n: number, status: GrantStatus, overrides: Partial<Grant> = {}): Grant => ({
  id: grantId(n),
  coinType: CoinType.make("0x2::sui::SUI"),
  poolId: ObjectId.make(hex(100 + n)),
  sessionCap: AtomicAmount.make("1000"),
  maxPerPayment: AtomicAmount.make("100"),
  expiryMs: 0n,
  window: NO_STORED_WINDOW,
  recipients: [],
  kind: 0,
  status,
  grantObjectId: status === "pending" || status === "failed" ? null : ObjectId.make(hex(200 + n)),
  createdAtMs: CREATED,
  ...overrides
})

const signer = (...grants: ReadonlyArray<Grant>): DelegatedSigner => ({
  id: DelegatedSignerId.make(`ds_${"0".repeat(26)}`),
  seq: 1n,
  owner: SuiAddress.make(hex(1)),
  agentAddress: SuiAddress.make(hex(2)),
  name: "agent",
  profileIds: [],
  policyIds: [],
  onChainPolicyIds: [3, 1],
  policyRules: [],
  createdAtMs: CREATED,
  updatedAtMs: CREATED,
  grants
})

const unused: DigestRecord = { _tag: "Unused" }
const decide = (s: DelegatedSigner, step: FinalizeStep, nowMs = CREATED + HOUR, record: DigestRecord = unused, n = 1) => {
  const g = s.grants.find((x) => x.id === grantId(n))
  if (g === undefined) throw new Error("no such grant")
  return decideFinalize({ signer: s, grant: g, step, record, grantObjectId: step === "finalizeCreate" ? ObjectId.make(hex(300)) : null, at: at(nowMs) })
}

describe("viewOf", () => {
  it("applies expiry and the pending window on read", () => {
    const s = signer(grant(1, "active", { expiryMs: BigInt(CREATED + HOUR) }), grant(2, "pending"))
    expect(viewOf(s, at(CREATED)).grants.map((g) => g.status)).toEqual(["active", "pending"])
    expect(viewOf(s, at(CREATED + HOUR)).grants.map((g) => g.status)).toEqual(["expired", "pending"])
    // The deadline itself still accepts a create; strictly after it the grant reads failed.
    expect(grantStatusAt(grant(2, "pending"), at(CREATED + 24 * HOUR))).toBe("pending")
    expect(viewOf(s, at(CREATED + 24 * HOUR + 1)).status).toBe("expired")
    expect(viewOf(s, at(CREATED)).createdAt).toBe(new Date(CREATED).toISOString())
  })

  it("shows the window's terms, and its spending as the chain holds it, rolled to now", () => {
    const DAY = 24 * HOUR
    const daily = { kind: WindowKind.period, periodMs: AtomicAmount.make(String(DAY)), limit: AtomicAmount.make("300") } as const
    const s = signer(grant(1, "active", { window: daily }), grant(2, "active"), grant(3, "pending", { window: daily }))
    const onChain = new Map([[hex(201), { kind: WindowKind.period, periodMs: BigInt(DAY), limit: 300n, startMs: BigInt(CREATED), spent: 120n }]])
    const [windowed, open, pending] = viewOf(s, at(CREATED + HOUR), onChain).grants
    expect(windowed).toMatchObject({
      window: { limitAtomic: "300", period: "day", periodMs: DAY },
      spentThisWindowAtomic: "120",
      windowResetsAt: new Date(CREATED + DAY).toISOString()
    })
    expect(open).toMatchObject({ window: null, spentThisWindowAtomic: null, windowResetsAt: null })
    // Not on chain yet: its terms, but no figures.
    expect(pending).toMatchObject({ window: { period: "day" }, spentThisWindowAtomic: null, windowResetsAt: null })
    // A day and a half later the window has rolled: nothing spent in the one that began a day after the first.
    expect(viewOf(s, at(CREATED + DAY + DAY / 2), onChain).grants[0]).toMatchObject({
      spentThisWindowAtomic: "0",
      windowResetsAt: new Date(CREATED + 2 * DAY).toISOString()
    })
    expect(windowedGrantObjects([s])).toEqual([hex(201)])
  })
})

describe("planPrepare", () => {
  it("pause moves active and re-prepares pausing grants, leaves pending ones, and says what can pay", () => {
    const plan = planPrepare(signer(grant(1, "active"), grant(2, "pausing"), grant(3, "pending")), "pause", at(CREATED))
    if (plan._tag !== "Plan") return expect.fail(plan.reason)
    expect(plan.targets.map((g) => g.id)).toEqual([grantId(1), grantId(2)])
    expect(plan.moves).toEqual([{ grantId: grantId(1), from: "active", to: "pausing" }, { grantId: grantId(2), from: "pausing", to: "pausing" }])
    expect(statusAt(plan.after, at(CREATED))).toBe("pausing")
  })

  it("revoke moves every live grant to revoking and abandons those that never activated", () => {
    const plan = planPrepare(signer(grant(1, "paused"), grant(2, "pending")), "revoke", at(CREATED))
    if (plan._tag !== "Plan") return expect.fail(plan.reason)
    expect(plan.targets.map((g) => g.id)).toEqual([grantId(1)])
    expect(plan.moves).toContainEqual({ grantId: grantId(2), from: "pending", to: "failed" })
    expect(statusAt(plan.after, at(CREATED))).toBe("revoking")
  })

  it("resume changes nothing until it verifies", () => {
    const plan = planPrepare(signer(grant(1, "paused")), "resume", at(CREATED))
    if (plan._tag !== "Plan") return expect.fail(plan.reason)
    expect(plan.moves).toEqual([{ grantId: grantId(1), from: "paused", to: "paused" }])
  })

  it("refuses terminal signers, pause and resume while revoking, and a step with no eligible grant", () => {
    const refusal = (s: DelegatedSigner, change: "revoke" | "pause" | "resume", nowMs = CREATED) => {
      const plan = planPrepare(s, change, at(nowMs))
      return plan._tag === "Refuse" ? plan.reason : "planned"
    }
    expect(refusal(signer(grant(1, "revoked")), "revoke")).toBe("signer_is_revoked")
    expect(refusal(signer(grant(1, "active", { expiryMs: BigInt(CREATED) })), "pause")).toBe("signer_is_expired")
    expect(refusal(signer(grant(1, "revoking"), grant(2, "active")), "pause")).toBe("signer_is_revoking")
    expect(refusal(signer(grant(1, "pending")), "pause")).toBe("no_grant_can_be_paused")
    expect(refusal(signer(grant(1, "active")), "resume")).toBe("no_grant_can_be_resumed")
    expect(refusal(signer(grant(1, "revoking"), grant(2, "active")), "revoke")).toBe("planned")
  })
})

describe("decideRecorded", () => {
  it("reads a digest's one record as unused, this grant's, or another grant's", () => {
    expect(digestRecordFor(Option.none(), grantId(1))).toEqual({ _tag: "Unused" })
    expect(digestRecordFor(Option.some({ grantId: grantId(1), action: "finalizeCreate" }), grantId(1))).toEqual({ _tag: "Mine", action: "finalizeCreate" })
    expect(digestRecordFor(Option.some({ grantId: grantId(2), action: "finalizeCreate" }), grantId(1))).toEqual({ _tag: "Elsewhere" })
  })

  it("replays a digest recorded for this change, verifies a failed create again, refuses the rest", () => {
    expect(decideRecorded(unused, "finalizeCreate")._tag).toBe("Verify")
    expect(decideRecorded({ _tag: "Mine", action: "finalizePause" }, "finalizePause")._tag).toBe("Replay")
    expect(decideRecorded({ _tag: "Mine", action: "failCreate" }, "finalizeCreate")._tag).toBe("Verify")
    expect(decideRecorded({ _tag: "Mine", action: "finalizeCreate" }, "finalizePause")).toEqual({ _tag: "Refuse", reason: "digest_already_used_for_another_change" })
    expect(decideRecorded({ _tag: "Elsewhere" }, "finalizeCreate")).toEqual({ _tag: "Refuse", reason: "digest_already_used_by_another_grant" })
  })
})

describe("decideFinalize", () => {
  it("moves a grant along every finalize edge and binds a created grant's object", () => {
    expect(decide(signer(grant(1, "pending")), "finalizeCreate")).toEqual({ _tag: "Apply", status: "active", grantObjectId: hex(300) })
    expect(decide(signer(grant(1, "pausing")), "finalizePause")).toEqual({ _tag: "Apply", status: "paused", grantObjectId: null })
    expect(decide(signer(grant(1, "paused")), "finalizeResume")).toEqual({ _tag: "Apply", status: "active", grantObjectId: null })
    expect(decide(signer(grant(1, "revoking")), "finalizeRevoke")).toEqual({ _tag: "Apply", status: "revoked", grantObjectId: null })
    expect(decide(signer(grant(1, "active")), "finalizePause")).toEqual({ _tag: "Refuse", reason: "grant_is_active" })
    expect(decide(signer(grant(1, "revoking")), "finalizePause")).toEqual({ _tag: "Refuse", reason: "grant_is_revoking" })
  })

  it("refuses an expired grant, and a pending one whose window closed (failed is terminal)", () => {
    expect(decide(signer(grant(1, "active", { expiryMs: BigInt(CREATED) })), "finalizePause")).toEqual({ _tag: "Refuse", reason: "grant_is_expired" })
    expect(decide(signer(grant(1, "pending")), "finalizeCreate", CREATED + 25 * HOUR)).toEqual({ _tag: "Refuse", reason: "grant_is_failed" })
    expect(decide(signer(grant(1, "failed")), "finalizeCreate")).toEqual({ _tag: "Refuse", reason: "grant_is_failed" })
  })

  it("keeps a digest's own change, refuses it for another, and a digest of another grant", () => {
    expect(decide(signer(grant(1, "active")), "finalizeCreate", CREATED, { _tag: "Mine", action: "finalizeCreate" })._tag).toBe("Keep")
    expect(decide(signer(grant(1, "active")), "finalizePause", CREATED, { _tag: "Mine", action: "finalizeCreate" })._tag).toBe("Refuse")
    expect(decide(signer(grant(1, "pending")), "finalizeCreate", CREATED, { _tag: "Elsewhere" })._tag).toBe("Refuse")
  })

  it("fails only a pending grant on a failed create; one that moved on keeps its state", () => {
    expect(decide(signer(grant(1, "pending")), "failCreate")).toEqual({ _tag: "Apply", status: "failed", grantObjectId: null })
    expect(decide(signer(grant(1, "active")), "failCreate")._tag).toBe("Keep")
  })

  it("a create landing after the owner asked to revoke joins the revocation", () => {
    expect(decide(signer(grant(1, "pending"), grant(2, "revoking")), "finalizeCreate")).toMatchObject({ _tag: "Apply", status: "revoking" })
  })

  it("a create landing while its siblings are paused is active, and the signer reads partially_active, not paused", () => {
    const s = signer(grant(1, "pending"), grant(2, "paused"))
    expect(statusAt(s, at(CREATED))).toBe("paused")
    const decision = decide(s, "finalizeCreate")
    expect(decision).toMatchObject({ _tag: "Apply", status: "active" })
    const after = applyDecision(s, grantId(1), decision, CREATED + 1)
    expect(statusAt(after, at(CREATED + 1))).toBe("partially_active")
    const pause = planPrepare(after, "pause", at(CREATED + 1))
    expect(pause._tag === "Plan" ? pause.targets.map((g) => g.id) : pause.reason).toEqual([grantId(1)])
  })
})

describe("isCreateOf", () => {
  const pkg: SpendAccountPackage = { originalId: hex(9), publishedAt: hex(10), registryId: hex(11) }
  const g = grant(1, "pending")
  const s = signer(g)
  const tx = (args: ReadonlyArray<unknown>, fn = "create_policy_grant"): ChainTransaction => ({
    digest: "d",
    sender: hex(1),
    status: "failure",
    error: "abort",
    checkpoint: "1",
    timestampMs: "0",
    calls: [{ package: hex(10), module: "spend_account", function: fn, typeArguments: ["0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI"], arguments: args }],
    events: []
  })
  // registry, pool, nonce, deadline, delegate, session cap, max per payment, expiry, window kind, period, limit, recipients, policies
  const args = [pkg.registryId, g.poolId, toHex(nonceBytes(g.id)), "0x6", s.agentAddress, "1000", "100", "0", "0", "0", "0", [], ["1", "3"]]

  it("recognizes exactly this grant's create call, in any policy order", () => {
    expect(isCreateOf(tx(args), pkg, s, g)).toBe(true)
    expect(isCreateOf(tx(args, "create_pool"), pkg, s, g)).toBe(false)
    expect(isCreateOf(tx(args.with(2, toHex(nonceBytes(grantId(2))))), pkg, s, g)).toBe(false)
    expect(isCreateOf(tx(args.with(5, "1001")), pkg, s, g)).toBe(false)
    expect(isCreateOf(tx(args.with(12, ["1"])), pkg, s, g)).toBe(false)
    expect(isCreateOf(tx(args.with(12, ["3", "1"])), pkg, s, g)).toBe(true)
  })
})
