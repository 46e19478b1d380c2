import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"
import { executeKind } from "@gateway/client/OwnerWallet"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { cpuMeter, type CpuPerOperation } from "./CpuMeter.ts"
import { step } from "./Progress.ts"
import { SUI } from "./ServiceTerms.ts"
import { split, time } from "./Timing.ts"
import { checkpointed, fundedOwner, type Wallets } from "./Wallets.ts"

const LANES = 8
const CYCLES_PER_LANE = 20
/** Cycles each lane runs before the measured ones, so the figures are the gateway's steady state, not its JIT warming up. */
const WARM_UP_CYCLES_PER_LANE = 2

export interface LifecycleFigures {
  readonly cyclesPerSecond: number
  readonly stages: Record<"build" | "execute" | "finality" | "finalize", ReturnType<typeof split>>
  readonly cpuPerCycle: CpuPerOperation
}

/**
 * The signer lifecycle, 8 lanes at once, each its own owner (gas coins are
 * owned objects): create (the gateway builds the kind) → the owner's wallet
 * dry-runs, signs and executes it on the ledger → waits for its checkpoint →
 * finalize (the gateway fetches and verifies it). After a short warm-up, each
 * stage is timed, and the CPU each process used is counted over the measured
 * cycles only.
 */
export const signerLifecycle = (wallets: Wallets, pids: { readonly gateway: number; readonly ledger: number }) =>
  Effect.gen(function*() {
    const lanes = yield* Effect.forEach(Array.from({ length: LANES }, () => new Ed25519Keypair()), (key) => fundedOwner(wallets, key))
    const stages = { build: [] as Array<number>, execute: [] as Array<number>, finality: [] as Array<number>, finalize: [] as Array<number> }
    const cycle = ({ key, as }: Effect.Success<ReturnType<typeof fundedOwner>>, lane: number, i: number) =>
      Effect.gen(function*() {
        const created = yield* time(wallets.api.delegatedSigners.create({
          headers: { "idempotency-key": `bench-${lane}-${i}` },
          payload: {
            agentAddress: SuiAddress.make(new Ed25519Keypair().toSuiAddress()),
            assetScopes: [{ asset: SUI, totalBudgetAtomic: PositiveAtomicAmount.make("1000"), maxPerPaymentAtomic: PositiveAtomicAmount.make("100") }]
          }
        }).pipe(as))
        const grant = created.value.grants[0]
        if (grant === undefined) return yield* Effect.die("no grant")
        const executed = yield* time(executeKind(grant.txKindBytes, key, wallets.sui))
        const finality = yield* time(checkpointed(wallets, executed.value.digest))
        const finalized = yield* time(wallets.api.delegatedSigners.finalizeCreate({
          params: { id: created.value.delegatedSignerId, grantId: grant.grantId },
          payload: { digest: executed.value.digest }
        }).pipe(as))
        return { build: created.ms, execute: executed.ms, finality: finality.ms, finalize: finalized.ms }
      })
    /** Cycles `from` to `to` (exclusive) of every lane, the lanes at once; `record` keeps their stage timings. */
    const round = (from: number, to: number, record: boolean) =>
      Effect.forEach(lanes, (owner, lane) =>
        Effect.forEach(Array.from({ length: to - from }, (_, i) => from + i), (i) =>
          Effect.map(cycle(owner, lane, i), (timed) => {
            if (!record) return
            stages.build.push(timed.build)
            stages.execute.push(timed.execute)
            stages.finality.push(timed.finality)
            stages.finalize.push(timed.finalize)
          }), { discard: true }), { concurrency: LANES, discard: true })
    yield* round(0, WARM_UP_CYCLES_PER_LANE, false)
    yield* step(`signer lifecycle, ${LANES} lanes`)
    const meter = cpuMeter(pids)
    const started = performance.now()
    yield* round(WARM_UP_CYCLES_PER_LANE, WARM_UP_CYCLES_PER_LANE + CYCLES_PER_LANE, true)
    const cycles = LANES * CYCLES_PER_LANE
    const seconds = (performance.now() - started) / 1000
    return {
      cyclesPerSecond: cycles / seconds,
      stages: { build: split(stages.build), execute: split(stages.execute), finality: split(stages.finality), finalize: split(stages.finalize) },
      cpuPerCycle: meter.per(cycles)
    } satisfies LifecycleFigures
  })
