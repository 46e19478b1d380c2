import { Transaction } from "@mysten/sui/transactions"
import { fromBase64 } from "@mysten/sui/utils"
import { Events, normalizeCoinType, poolIdOf, type SpendAccountPackage, SUI_COIN_TYPE, target } from "@gateway/domain/chain/SpendAccountModule"
import * as Kinds from "@gateway/chain/transactions/Kinds"
import type { Execution } from "../../src/Execution.ts"
import { Rejection } from "../../src/execute/Admission.ts"
import { GRANT, senderOf, type Step } from "./Vectors.ts"
import { DELEGATE, RECIPIENT, World } from "./World.ts"

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
        return (tx) => {
          tx.moveCall({
            target: target(pkg, "withdraw"),
            typeArguments: [this.coinType],
            arguments: [tx.sharedObjectRef({ ...refOf(world.shared(this.poolId)), mutable: true }), tx.pure.u64(step.amount)]
          })
        }
      case "createGrant":
        return Kinds.createPolicyGrant(pkg, {
          sender,
          grantId: step.grantId ?? GRANT.grantId,
          deadlineMs: step.deadlineMs ?? GRANT.deadlineMs,
          pool: world.shared(this.poolId),
          coinType: this.coinType,
          delegate: DELEGATE,
          sessionCap: step.sessionCap ?? GRANT.sessionCap,
          maxPerPayment: step.maxPerPayment ?? GRANT.maxPerPayment,
          expiryMs: step.expiryMs ?? GRANT.expiryMs,
          policyIds: [1n]
        })
      case "pay":
        return Kinds.pay(pkg, {
          sender,
          grant: this.grant(),
          pool: world.shared(this.poolId),
          coinType: this.coinType,
          amount: step.amount,
          recipient: RECIPIENT,
          memo: new TextEncoder().encode("nonce-1")
        })
      case "pause":
        return Kinds.pauseGrant(pkg, { sender, grant: this.grant(), kind: step.kind ?? 0 })
      case "resume":
        return Kinds.resumeGrant(pkg, { sender, grant: this.grant(), kind: step.kind ?? 0 })
      case "revoke":
        return Kinds.revokeGrant(pkg, { sender, grant: this.grant() })
      case "migratePool":
        return (tx) => {
          tx.moveCall({
            target: target(pkg, "migrate_pool"),
            typeArguments: [this.coinType],
            arguments: [tx.sharedObjectRef({ ...refOf(world.shared(this.poolId)), mutable: true })]
          })
        }
      case "migrateGrant":
        return (tx) => {
          tx.moveCall({ target: target(pkg, "migrate_grant"), arguments: [tx.sharedObjectRef({ ...refOf(this.grant()), mutable: true })] })
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
    }
    return { execution: result, moveCallIndex, fn }
  }
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
