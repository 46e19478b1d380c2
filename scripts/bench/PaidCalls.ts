import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"
import { signIn, withOwner } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { executeKind } from "@gateway/client/OwnerWallet"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { cpuMeter, type CpuPerOperation } from "./CpuMeter.ts"
import { step } from "./Progress.ts"
import { SUI, terms } from "./ServiceTerms.ts"
import { median, percentile, split, time } from "./Timing.ts"
import { checkpointed, fundedOwner, type Wallets } from "./Wallets.ts"

const CALLS = 50
/** Paid calls before the measured ones, so the figures are the gateway's steady state, not its JIT warming up. */
const WARM_UP_CALLS = 5

export interface PaidCallFigures {
  readonly calls: number
  readonly direct: ReturnType<typeof split>
  readonly paid: ReturnType<typeof split>
  readonly addedP50: number
  readonly addedP99: number
  readonly cpuPerCall: CpuPerOperation
}

/**
 * A seller's API behind the gateway, and an agent with a live grant paying
 * for calls to it through the agent SDK, one after another: 402, pay on the
 * ledger (dry run, sign, execute), wait for the checkpoint, present the
 * credential (the gateway verifies and forwards). Timed against calling the
 * seller directly; after a few warm-up calls, the CPU each process used is
 * counted over the measured paid calls only.
 */
export const paidCalls = (wallets: Wallets, pids: { readonly gateway: number; readonly ledger: number }, upstream: { readonly url: string }) =>
  Effect.gen(function*() {
    const { api } = wallets
    const owner = yield* fundedOwner(wallets, new Ed25519Keypair())
    const asSeller = withOwner((yield* signIn(api, new Ed25519Keypair())).authorization)
    const { service } = yield* api.sellers.register({ payload: terms("paid bench", SuiAddress.make(new Ed25519Keypair().toSuiAddress()), upstream.url) }).pipe(asSeller)
    yield* api.sellers.activate({ params: { id: service.id } }).pipe(asSeller)
    const agentKey = new Ed25519Keypair()
    yield* wallets.faucet(agentKey.toSuiAddress())
    const signer = yield* api.delegatedSigners.create({
      headers: { "idempotency-key": "bench-agent" },
      payload: {
        agentAddress: SuiAddress.make(agentKey.toSuiAddress()),
        assetScopes: [{ asset: SUI, totalBudgetAtomic: PositiveAtomicAmount.make("1000000000"), maxPerPaymentAtomic: PositiveAtomicAmount.make("1000") }]
      }
    }).pipe(owner.as)
    const grant = signer.grants[0]
    if (grant === undefined) return yield* Effect.die("no grant")
    const digest = (yield* executeKind(grant.txKindBytes, owner.key, wallets.sui)).digest
    yield* checkpointed(wallets, digest)
    yield* api.delegatedSigners.finalizeCreate({ params: { id: signer.delegatedSignerId, grantId: grant.grantId }, payload: { digest } }).pipe(owner.as)
    const manifest = yield* api.delegatedSigners.manifest({ params: { id: signer.delegatedSignerId } }).pipe(owner.as)
    const agent = makeAgent({ manifest, signer: agentKey, client: wallets.sui })
    const entry = yield* api.services.get({ params: { id: service.id } })

    yield* step(`${CALLS} paid calls, and the seller called directly`)
    const direct: Array<number> = []
    for (let i = 0; i < CALLS; i++) direct.push((yield* time(Effect.promise(() => fetch(upstream.url).then((r) => r.text())))).ms)
    /** One paid call, timed; a call the gateway did not settle ends the bench. */
    const paidCall = Effect.gen(function*() {
      const call = yield* time(agent.fetchPaid(entry.resourceUrl))
      if (call.value.receipt === undefined) return yield* Effect.die(`a paid call was answered ${call.value.response.status} without a receipt`)
      yield* Effect.promise(() => call.value.response.arrayBuffer())
      return call.ms
    })
    for (let i = 0; i < WARM_UP_CALLS; i++) yield* paidCall
    const paid: Array<number> = []
    const meter = cpuMeter(pids)
    for (let i = 0; i < CALLS; i++) paid.push(yield* paidCall)
    return {
      calls: CALLS,
      direct: split(direct),
      paid: split(paid),
      addedP50: median(paid) - median(direct),
      addedP99: percentile(paid, 99) - percentile(direct, 99),
      cpuPerCall: meter.per(CALLS)
    } satisfies PaidCallFigures
  })
