import { Context, Data, Effect, Layer } from "effect"
import type { SuiGrpcClient } from "@mysten/sui/grpc"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import type { SuiClientTypes } from "@mysten/sui/client"
import { describeExecutionError } from "@gateway/chain/sui/ExecutionErrorText"
import { Structs, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { Unavailable } from "@gateway/domain/Errors"
import type { PoolCoin } from "@gateway/domain/sponsorship/CoinPoolPlan"
import type { GasUsed, Simulation } from "@gateway/domain/sponsorship/GasBudget"
import { timedChainCall } from "@gateway/chain/ChainMetrics"
import { SuiNode } from "../sui/SuiNode.ts"
import { chainDown, gasOf, messageOf, refusedByNode } from "../sui/NodeAnswers.ts"

export interface Executed {
  readonly digest: string
  readonly status: "success" | "failure"
  readonly error: string | null
  readonly gas: GasUsed
}

/** The chain refused the transaction before executing it (a stale coin, a wrong signature): nothing ran. */
export class ExecuteRefused extends Data.TaggedError("ExecuteRefused")<{ readonly reason: string }> {}

/** Coins listed per page, and pages read: the sponsor's pool is a few dozen coins. */
const COIN_PAGES = 10

const chainCall = <A>(method: string, run: () => Promise<A>) => Effect.tryPromise({ try: run, catch: chainDown }).pipe(timedChainCall(method))

/** The sponsor's SUI coins, a page at a time. */
const listCoins = (client: SuiGrpcClient) => (owner: string) =>
    Effect.gen(function*() {
      const all: Array<PoolCoin> = []
      let cursor: string | null = null
      for (let page = 0; page < COIN_PAGES; page++) {
        const listed: SuiClientTypes.ListCoinsResponse = yield* chainCall("listCoins", () => client.core.listCoins({ owner, coinType: SUI_COIN_TYPE, cursor }))
        for (const c of listed.objects) all.push({ objectId: c.objectId, version: c.version, digest: c.digest, balance: BigInt(c.balance) })
        if (!listed.hasNextPage || listed.cursor === null) break
        cursor = listed.cursor
      }
      return all
    }).pipe(Effect.withSpan("SponsorNode.coins"))

/** The owner a Grant names: whose budget a grant payment's sponsored gas counts against. */
const readGrantOwner = (client: SuiGrpcClient) => (grantObjectId: string) =>
    chainCall("getObjects", () => client.core.getObjects({ objectIds: [grantObjectId], include: { content: true } })).pipe(
      Effect.flatMap(({ objects: [grant] }) =>
        grant === undefined || grant instanceof Error
          ? Effect.fail(chainDown(`grant ${grantObjectId}: ${grant === undefined ? "not served" : grant.message}`))
          : Effect.try({ try: () => normalizeSuiAddress(Structs.Grant.parse(grant.content).owner), catch: (cause) => chainDown(`grant ${grantObjectId}: ${messageOf(cause)}`) })
      ),
      Effect.withSpan("SponsorNode.grantOwner")
    )

/**
 * The chain as the sponsor reads and writes it, through the gateway's node
 * (`SuiNode`): the epoch and its reference gas price, simulations, the sponsor's coins, whose
 * objects a call takes, a grant's owner, and execution.
 */
export class SponsorNode extends Context.Service<SponsorNode, {
  readonly epoch: Effect.Effect<{ readonly epoch: bigint; readonly referenceGasPrice: bigint }, Unavailable>
  simulate(txBytes: Uint8Array): Effect.Effect<Simulation, Unavailable>
  coins(owner: string): Effect.Effect<ReadonlyArray<PoolCoin>, Unavailable>
  /** True when every object is owned by `owner` on chain. */
  allOwnedBy(objectIds: ReadonlyArray<string>, owner: string): Effect.Effect<boolean, Unavailable>
  /**
   * The owner (normalized) of the Grant at `grantObjectId`, from its contents. Only for a grant a payment just
   * simulated successfully through: that proves it a Grant, so one the node cannot show or decode is an outage.
   */
  grantOwner(grantObjectId: string): Effect.Effect<string, Unavailable>
  execute(txBytes: Uint8Array, signatures: ReadonlyArray<string>): Effect.Effect<Executed, ExecuteRefused | Unavailable>
}>()("@gateway/server/SponsorNode") {
  static readonly layer = Layer.effect(
    SponsorNode,
    Effect.gen(function*() {
      const client = yield* SuiNode
      const chain = <A>(method: string, run: () => Promise<A>) => Effect.tryPromise({ try: run, catch: chainDown }).pipe(timedChainCall(method))

      const epoch = chain("getEpoch", () => client.ledgerService.getEpoch({ readMask: { paths: ["epoch", "reference_gas_price"] } }).response).pipe(
        Effect.flatMap((response) =>
          response.epoch?.epoch === undefined || response.epoch.referenceGasPrice === undefined
            ? Effect.fail(chainDown("the node did not say its epoch and reference gas price"))
            : Effect.succeed({ epoch: response.epoch.epoch, referenceGasPrice: response.epoch.referenceGasPrice })
        ),
        Effect.withSpan("SponsorNode.epoch")
      )

      const simulate = (txBytes: Uint8Array) =>
        Effect.tryPromise({
          // No gas selection: an empty payment runs on a coin the node makes up, a named one on that coin.
          try: () => client.core.simulateTransaction({ transaction: txBytes, doGasSelection: false, include: { effects: true } }),
          catch: (cause) => cause
        }).pipe(
          timedChainCall("simulateTransaction"),
          Effect.map((result): Simulation => {
            const tx = result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction
            return tx.status.success ? { ok: true, gas: gasOf(tx.effects) } : { ok: false, error: describeExecutionError(tx.status.error) }
          }),
          Effect.catch((cause) => (refusedByNode(cause) ? Effect.succeed<Simulation>({ ok: false, error: messageOf(cause) }) : Effect.fail(chainDown(cause)))),
          Effect.withSpan("SponsorNode.simulate")
        )

      const coins = listCoins(client)

      const allOwnedBy = (objectIds: ReadonlyArray<string>, owner: string) =>
        objectIds.length === 0
          ? Effect.succeed(true)
          : chain("getObjects", () => client.core.getObjects({ objectIds: [...objectIds] })).pipe(
            Effect.map(({ objects }) =>
              objects.every((o) => !(o instanceof Error) && o.owner.$kind === "AddressOwner" && normalizeSuiAddress(o.owner.AddressOwner) === normalizeSuiAddress(owner))
            ),
            Effect.withSpan("SponsorNode.allOwnedBy")
          )

      const grantOwner = readGrantOwner(client)

      const execute = (txBytes: Uint8Array, signatures: ReadonlyArray<string>) =>
        Effect.gen(function*() {
          const result = yield* Effect.tryPromise({
            try: () => client.core.executeTransaction({ transaction: txBytes, signatures: [...signatures], include: { effects: true } }),
            catch: (cause) => (refusedByNode(cause) ? new ExecuteRefused({ reason: messageOf(cause) }) : chainDown(cause))
          }).pipe(timedChainCall("executeTransaction"))
          const tx = result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction
          // Executed either way: a node slow to show it to reads does not undo that, so only the log hears of it.
          yield* chain("waitForTransaction", () => client.core.waitForTransaction({ digest: tx.digest })).pipe(
            Effect.catch((down) => Effect.logWarning("sponsored transaction executed but not yet readable", tx.digest, down.reason))
          )
          return {
            digest: tx.digest,
            status: tx.status.success ? "success" : "failure",
            error: tx.status.success ? null : describeExecutionError(tx.status.error),
            gas: gasOf(tx.effects)
          } satisfies Executed
        }).pipe(Effect.withSpan("SponsorNode.execute"))

      return SponsorNode.of({ epoch, simulate, coins, allOwnedBy, grantOwner, execute })
    })
  )
}
