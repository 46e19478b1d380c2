import { bcs } from "@mysten/sui/bcs"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64, normalizeSuiAddress } from "@mysten/sui/utils"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { WindowKind } from "@gateway/domain/chain/GrantWindow"
import { GrantKind, nonceBytes, target } from "@gateway/domain/chain/SpendAccountModule"
import { createPolicyGrant, fundPool, pauseGrant, resumeGrant } from "../src/transactions/Kinds.ts"
import { localPackage } from "../src/LocalNetwork.ts"

const PACKAGE = localPackage(normalizeSuiAddress("0x5e4d"))

const SENDER = `0x${"1".repeat(64)}`
const GRANT_REF = { objectId: `0x${"2".repeat(64)}`, initialSharedVersion: 3n }
const POOL_REF = { objectId: `0x${"4".repeat(64)}`, initialSharedVersion: 5n }
const REGISTRY_REF = { objectId: PACKAGE.registryId, initialSharedVersion: 1n }
const input = (kind: number) => ({ sender: SENDER, registry: REGISTRY_REF, grant: GRANT_REF, kind })

const dataOf = (txKindBytes: string) => Transaction.fromKind(fromBase64(txKindBytes)).getData()

/** The Move function the kind's one command calls. */
const calledFunction = (txKindBytes: string) => dataOf(txKindBytes).commands[0]?.MoveCall?.function

describe("pause and resume kinds", () => {
  it.effect("call the function of the grant's own kind", () =>
    Effect.gen(function*() {
      for (const [kind, pause, resume] of [[GrantKind.policy, "pause_grant", "resume_grant"], [GrantKind.spend, "pause_spend_grant", "resume_spend_grant"], [GrantKind.open, "pause_open_grant", "resume_open_grant"]] as const) {
        const paused = yield* Effect.promise(() => pauseGrant(PACKAGE, input(kind)))
        assert.strictEqual(paused.moveTarget, target(PACKAGE, pause))
        assert.strictEqual(calledFunction(paused.txKindBytes), pause)
        assert.strictEqual((yield* Effect.promise(() => resumeGrant(PACKAGE, input(kind)))).moveTarget, target(PACKAGE, resume))
      }
    }))

  it.effect("build nothing for a kind the module does not define, rather than another kind's call", () =>
    Effect.gen(function*() {
      for (const kind of [3, -1, 1.5]) {
        const pause = yield* Effect.promise(() => pauseGrant(PACKAGE, input(kind)).then(() => "built", (error: unknown) => String(error)))
        const resume = yield* Effect.promise(() => resumeGrant(PACKAGE, input(kind)).then(() => "built", (error: unknown) => String(error)))
        assert.match(pause, new RegExp(`grant kind ${kind} is not one the module defines`))
        assert.match(resume, new RegExp(`grant kind ${kind} is not one the module defines`))
      }
    }))
})

describe("create and fund kinds", () => {
  it.effect("a create takes the Registry immutably, the pool mutably, and carries the grant id as its nonce, the deadline, the window and the recipients", () =>
    Effect.gen(function*() {
      const kind = yield* Effect.promise(() =>
        createPolicyGrant(PACKAGE, {
          sender: SENDER,
          grantId: "g_01J9",
          deadlineMs: 1234n,
          registry: REGISTRY_REF,
          pool: POOL_REF,
          coinType: "0x2::sui::SUI",
          delegate: SENDER,
          sessionCap: 10n,
          maxPerPayment: 5n,
          expiryMs: 0n,
          window: { kind: WindowKind.calendarMonth, limit: 8n },
          recipients: [SENDER],
          policyIds: [7n]
        })
      )
      const data = dataOf(kind.txKindBytes)
      const call = data.commands[0]?.MoveCall
      if (call === undefined || call === null) return assert.fail("no Move call")
      assert.strictEqual(kind.moveTarget, target(PACKAGE, "create_policy_grant"))
      const inputAt = (i: number) => {
        const arg = call.arguments[i]
        return arg?.$kind === "Input" ? data.inputs[arg.Input] : undefined
      }
      assert.deepStrictEqual(inputAt(0)?.Object?.SharedObject, { objectId: REGISTRY_REF.objectId, initialSharedVersion: "1", mutable: false })
      assert.deepStrictEqual(inputAt(1)?.Object?.SharedObject, { objectId: POOL_REF.objectId, initialSharedVersion: "5", mutable: true })
      assert.deepStrictEqual(fromBase64(inputAt(2)?.Pure?.bytes ?? ""), bcs.vector(bcs.u8()).serialize([...nonceBytes("g_01J9")]).toBytes())
      assert.deepStrictEqual(fromBase64(inputAt(3)?.Pure?.bytes ?? ""), bcs.u64().serialize(1234n).toBytes())
      assert.deepStrictEqual(fromBase64(inputAt(8)?.Pure?.bytes ?? ""), bcs.u8().serialize(WindowKind.calendarMonth).toBytes())
      assert.deepStrictEqual(fromBase64(inputAt(9)?.Pure?.bytes ?? ""), bcs.u64().serialize(0n).toBytes())
      assert.deepStrictEqual(fromBase64(inputAt(10)?.Pure?.bytes ?? ""), bcs.u64().serialize(8n).toBytes())
      assert.deepStrictEqual(fromBase64(inputAt(11)?.Pure?.bytes ?? ""), bcs.vector(bcs.Address).serialize([SENDER]).toBytes())
      assert.strictEqual(call.arguments.length, 14)
    }))

  it.effect("a first funding names the Registry, mutably; later ones name the pool", () =>
    Effect.gen(function*() {
      const registry = { objectId: PACKAGE.registryId, initialSharedVersion: 1n }
      const create = yield* Effect.promise(() => fundPool(PACKAGE, { sender: SENDER, coinType: "0x2::sui::SUI", amount: 5n, pool: undefined, registry, coins: [] }))
      const deposit = yield* Effect.promise(() => fundPool(PACKAGE, { sender: SENDER, coinType: "0x2::sui::SUI", amount: 5n, pool: POOL_REF, registry, coins: [] }))
      assert.strictEqual(create.moveTarget, target(PACKAGE, "create_pool"))
      assert.strictEqual(deposit.moveTarget, target(PACKAGE, "deposit"))
      const sharedOf = (txKindBytes: string) => dataOf(txKindBytes).inputs.flatMap((i) => (i.Object?.SharedObject ? [i.Object.SharedObject] : []))
      assert.deepStrictEqual(sharedOf(create.txKindBytes), [{ objectId: registry.objectId, initialSharedVersion: "1", mutable: true }])
      assert.deepStrictEqual(sharedOf(deposit.txKindBytes), [
        { objectId: registry.objectId, initialSharedVersion: "1", mutable: false },
        { objectId: POOL_REF.objectId, initialSharedVersion: "5", mutable: true }
      ])
    }))
})
