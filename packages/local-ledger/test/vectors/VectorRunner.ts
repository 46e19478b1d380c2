import { Transaction } from "@mysten/sui/transactions"
import { fromBase64 } from "@mysten/sui/utils"
import { Events, normalizeCoinType, poolIdOf, type SpendAccountPackage, SUI_COIN_TYPE, target } from "@gateway/domain/chain/SpendAccountModule"
import * as Kinds from "@gateway/chain/transactions/Kinds"
import * as SessionKinds from "@gateway/chain/transactions/SessionKinds"
import type { Execution } from "../../src/Execution.ts"
import { Rejection } from "../../src/execute/Admission.ts"
import { nonceBytes } from "@gateway/domain/chain/SpendAccountModule"
import { windowArguments, WindowKind, type WindowTerms } from "@gateway/domain/chain/GrantWindow"
import { GRANT, NO_WINDOW_ARGS, senderOf, SESSION, type Step, type WindowArgs } from "./Vectors.ts"
import { DELEGATE, OPERATOR, RECIPIENT, signVoucher, VOUCHER_KEY, World } from "./World.ts"

/** What a step ran: its execution, and the index of its Move call among the transaction's commands. */
export interface Ran {
  readonly execution: Execution
  readonly moveCallIndex: number
  readonly fn: string
}

/**
 * Plays vector steps on a `World`: builds each call with the same kind
 * builders the gateway uses (or, for calls the gateway never makes, one
 * Move call), and remembers the pool and the latest grant for the next step.
 */
export class VectorRunner {
  readonly world: World
  coinType = normalizeCoinType(SUI_COIN_TYPE)
  grantId: string | undefined
  /** The latest session opened, from its `SessionOpened`. */
  sessionId: string | undefined

  constructor(pkg?: SpendAccountPackage) {
    this.world = new World(pkg)
  }

  get poolId() {
    return poolIdOf(this.world.pkg, senderOfPool, this.coinType)
  }

  private grant() {
    if (this.grantId === undefined) throw new Error("no grant yet")
    return this.world.shared(this.grantId)
  }

  private registry() {
    return this.world.shared(this.world.pkg.registryId)
  }

  private session() {
    if (this.sessionId === undefined) throw new Error("no session yet")
    return this.world.shared(this.sessionId)
  }

  /** What every session call names: the Registry, the latest grant and session, the pool and its coin type. */
  private sessionRefs() {
    return { registry: this.registry(), grant: this.grant(), pool: this.world.shared(this.poolId), session: this.session(), coinType: this.coinType }
  }

  /** The Registry as a call names it: immutably, as every function but create_pool and set_version takes it. */
  private registryArg(tx: Transaction) {
    return tx.sharedObjectRef({ ...refOf(this.registry()), mutable: false })
  }

  private kindOf = async (step: Step): Promise<{ readonly txKindBytes: string } | ((tx: Transaction) => void) | undefined> => {
    const { world } = this
    const pkg = world.pkg
    const sender = senderOf(step)
    switch (step.op) {
      case "createPool": {
        const coinType = normalizeCoinType(step.coinType ?? SUI_COIN_TYPE)
        this.coinType = coinType
        const coins = coinType === normalizeCoinType(SUI_COIN_TYPE) ? [] : [world.coin(sender, step.amount, coinType)]
        return Kinds.fundPool(pkg, {
          sender,
          coinType,
          amount: step.amount,
          pool: undefined,
          registry: world.shared(pkg.registryId),
          coins: coins.map((c) => ({ objectId: c.id, version: c.version, digest: c.digest }))
        })
      }
      case "deposit": {
        const coins = this.coinType === normalizeCoinType(SUI_COIN_TYPE) ? [] : [world.coin(sender, step.amount, this.coinType)]
        return Kinds.fundPool(pkg, {
          sender,
          coinType: this.coinType,
          amount: step.amount,
          pool: world.shared(this.poolId),
          registry: world.shared(pkg.registryId),
          coins: coins.map((c) => ({ objectId: c.id, version: c.version, digest: c.digest }))
        })
      }
      case "withdraw":
        return Kinds.withdraw(pkg, { sender, registry: this.registry(), pool: world.shared(this.poolId), coinType: this.coinType, amount: step.amount })
      case "createGrant":
        if (!buildersCanSay(step.window ?? NO_WINDOW_ARGS)) return this.rawCreate(step)
        return Kinds.createPolicyGrant(pkg, {
          sender,
          grantId: step.grantId ?? GRANT.grantId,
          deadlineMs: step.deadlineMs ?? GRANT.deadlineMs,
          registry: this.registry(),
          pool: world.shared(this.poolId),
          coinType: this.coinType,
          delegate: DELEGATE,
          sessionCap: step.sessionCap ?? GRANT.sessionCap,
          maxPerPayment: step.maxPerPayment ?? GRANT.maxPerPayment,
          expiryMs: step.expiryMs ?? GRANT.expiryMs,
          window: windowTerms(step.window ?? NO_WINDOW_ARGS),
          recipients: step.recipients ?? [],
          policyIds: [1n]
        })
      case "pay":
        return Kinds.pay(pkg, {
          sender,
          registry: this.registry(),
          grant: this.grant(),
          pool: world.shared(this.poolId),
          coinType: this.coinType,
          amount: step.amount,
          recipient: step.recipient ?? RECIPIENT,
          memo: new TextEncoder().encode("nonce-1")
        })
      case "pause":
        return Kinds.pauseGrant(pkg, { sender, registry: this.registry(), grant: this.grant(), kind: step.kind ?? 0 })
      case "resume":
        return Kinds.resumeGrant(pkg, { sender, registry: this.registry(), grant: this.grant(), kind: step.kind ?? 0 })
      case "revoke":
        return Kinds.revokeGrant(pkg, { sender, registry: this.registry(), grant: this.grant() })
      case "openSession":
        return SessionKinds.openSession(pkg, {
          sender,
          registry: this.registry(),
          grant: this.grant(),
          pool: world.shared(this.poolId),
          coinType: this.coinType,
          payee: step.payee ?? RECIPIENT,
          operator: step.operator ?? OPERATOR,
          deposit: step.deposit,
          expiryMs: step.expiryMs ?? SESSION.expiryMs,
          voucherKey: step.voucherKey === "short" ? VOUCHER_KEY.slice(0, 31) : VOUCHER_KEY
        })
      case "topUp":
        return SessionKinds.topUp(pkg, { sender, ...this.sessionRefs(), amount: step.amount })
      case "claim":
      case "claimAndClose": {
        const voucher = step.voucher ?? {}
        const final = voucher.final ?? step.op === "claimAndClose"
        const signature = signVoucher(voucher.signer ?? "session", voucher.sessionId ?? this.session().objectId, voucher.amount ?? step.cumulative, final)
        const input = { sender, ...this.sessionRefs(), cumulative: step.cumulative, signature }
        return step.op === "claim" ? SessionKinds.claimSessions(pkg, { sender, registry: input.registry, claims: [input] }) : SessionKinds.claimAndClose(pkg, input)
      }
      case "closeSession":
        return SessionKinds.closeSession(pkg, { sender, ...this.sessionRefs() })
      case "requestClose":
        return SessionKinds.requestClose(pkg, { sender, ...this.sessionRefs() })
      case "migrateSession":
        return (tx) => {
          tx.moveCall({
            target: target(pkg, "migrate_session"),
            typeArguments: [this.coinType],
            arguments: [this.registryArg(tx), tx.sharedObjectRef({ ...refOf(this.session()), mutable: true })]
          })
        }
      case "sessionVersion": {
        const object = world.get(this.session().objectId)
        if (object.data._tag !== "Session") throw new Error("not a session")
        world.edit(object.id, { ...object.data, version: step.version })
        return undefined
      }
      case "forgetNonce":
        return (tx) => {
          tx.moveCall({
            target: target(pkg, "forget_nonce"),
            typeArguments: [this.coinType],
            arguments: [
              this.registryArg(tx),
              tx.sharedObjectRef({ ...refOf(world.shared(this.poolId)), mutable: true }),
              tx.pure.vector("u8", [...nonceBytes(step.grantId ?? GRANT.grantId)]),
              tx.object.clock()
            ]
          })
        }
      case "setVersion": {
        const cap = world.adminCap()
        return (tx) => {
          tx.moveCall({
            target: target(pkg, "set_version"),
            arguments: [
              tx.objectRef({ objectId: cap.id, version: cap.version.toString(), digest: cap.digest }),
              tx.sharedObjectRef({ ...refOf(this.registry()), mutable: true })
            ]
          })
        }
      }
      case "migratePool":
        return (tx) => {
          tx.moveCall({
            target: target(pkg, "migrate_pool"),
            typeArguments: [this.coinType],
            arguments: [this.registryArg(tx), tx.sharedObjectRef({ ...refOf(world.shared(this.poolId)), mutable: true })]
          })
        }
      case "migrateGrant":
        return (tx) => {
          tx.moveCall({
            target: target(pkg, "migrate_grant"),
            arguments: [this.registryArg(tx), tx.sharedObjectRef({ ...refOf(this.grant()), mutable: true })]
          })
        }
      case "registryVersion": {
        const object = world.get(pkg.registryId)
        if (object.data._tag !== "Registry") throw new Error("not the registry")
        world.edit(object.id, { ...object.data, version: step.version })
        return undefined
      }
      case "poolVersion": {
        const object = world.get(this.poolId)
        if (object.data._tag !== "Pool") throw new Error("not a pool")
        world.edit(object.id, { ...object.data, version: step.version })
        return undefined
      }
      case "grantVersion": {
        const object = world.get(this.grant().objectId)
        if (object.data._tag !== "Grant") throw new Error("not a grant")
        world.edit(object.id, { ...object.data, version: step.version })
        return undefined
      }
      case "clock":
        world.nowMs = step.ms
        return undefined
    }
  }

  /** A create whose window kind the builders cannot express (no owner could ask for it): the call as a forged kind would make it. */
  private rawCreate(step: Extract<Step, { op: "createGrant" }>) {
    const window = step.window ?? NO_WINDOW_ARGS
    return (tx: Transaction) => {
      tx.moveCall({
        target: target(this.world.pkg, "create_policy_grant"),
        typeArguments: [this.coinType],
        arguments: [
          this.registryArg(tx),
          tx.sharedObjectRef({ ...refOf(this.world.shared(this.poolId)), mutable: true }),
          tx.pure.vector("u8", [...nonceBytes(step.grantId ?? GRANT.grantId)]),
          tx.pure.u64(step.deadlineMs ?? GRANT.deadlineMs),
          tx.pure.address(DELEGATE),
          tx.pure.u64(step.sessionCap ?? GRANT.sessionCap),
          tx.pure.u64(step.maxPerPayment ?? GRANT.maxPerPayment),
          tx.pure.u64(step.expiryMs ?? GRANT.expiryMs),
          tx.pure.u8(window.kind),
          tx.pure.u64(window.periodMs),
          tx.pure.u64(window.limit),
          tx.pure.vector("address", [...(step.recipients ?? [])]),
          tx.pure.vector("u64", [1n]),
          tx.object.clock()
        ]
      })
    }
  }

  /** Runs one step; a state edit answers undefined. A refused transaction is an error: no vector expects one. */
  async step(step: Step, options: { readonly budget?: bigint } = {}): Promise<Ran | undefined> {
    const kind = await this.kindOf(step)
    if (kind === undefined) return undefined
    const compose = typeof kind === "function" ? kind : fromBase64(kind.txKindBytes)
    const commands = compose instanceof Uint8Array ? Transaction.fromKind(compose).getData().commands : composed(compose)
    const moveCallIndex = commands.findIndex((c) => c.MoveCall)
    const fn = commands[moveCallIndex]?.MoveCall?.function ?? ""
    const result = await this.world.run(senderOf(step), compose, options)
    if (result instanceof Rejection) throw new Error(`${step.op} was refused: ${result.reason}`)
    for (const event of result.events) {
      if (event.type.endsWith("::GrantCreated")) this.grantId = Events.GrantCreated.parse(fromBase64(event.bcs)).grant_id
      if (event.type.endsWith("::SessionOpened")) this.sessionId = Events.SessionOpened.parse(fromBase64(event.bcs)).session_id
    }
    return { execution: result, moveCallIndex, fn }
  }
}

/** A row's window arguments as the builders take them. */
export const windowTerms = (args: WindowArgs): WindowTerms =>
  args.kind === WindowKind.none
    ? { kind: WindowKind.none }
    : args.kind === WindowKind.calendarMonth
    ? { kind: WindowKind.calendarMonth, limit: args.limit }
    : { kind: WindowKind.period, periodMs: args.periodMs, limit: args.limit }

/** Whether the builders make exactly these window arguments (an owner cannot ask for an unknown kind, say). */
const buildersCanSay = (args: WindowArgs) => {
  const built = windowArguments(windowTerms(args))
  return built.kind === args.kind && built.periodMs === args.periodMs && built.limit === args.limit
}

/** The pools of the vectors are the owner's. */
const senderOfPool = senderOf({ op: "withdraw", amount: 0n })

const refOf = (ref: { readonly objectId: string; readonly initialSharedVersion: bigint }) => ({
  objectId: ref.objectId,
  initialSharedVersion: ref.initialSharedVersion.toString()
})

const composed = (compose: (tx: Transaction) => void) => {
  const tx = new Transaction()
  compose(tx)
  return tx.getData().commands
}
