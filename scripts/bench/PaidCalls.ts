import { Effect } from "effect"
import { makeAgent, type PaymentMode } from "@gateway/client/AgentSdk"
import { cpuMeter, type CpuPerOperation } from "./CpuMeter.ts"
import { type Fetched, fetchLog } from "./FetchLog.ts"
import { step } from "./Progress.ts"
import { payingAgent } from "./PayingAgent.ts"
import { cpuMs } from "./ServerProcess.ts"
import { median, percentile, split } from "./Timing.ts"
import type { Wallets } from "./Wallets.ts"

const CALLS = 50
/** Paid calls before the measured ones, so the figures are the gateway's steady state, not its JIT warming up. */
const WARM_UP_CALLS = 5

type Split = ReturnType<typeof split>

/** One flow's paid calls: every time in ms, p50 and p99 over the measured calls. */
export interface FlowFigures {
  readonly flow: PaymentMode
  readonly calls: number
  readonly direct: Split
  /** `fetchPaid`, end to end: the 402, the agent's side, the presented request. */
  readonly paid: Split
  /** Paid less direct, p50 from p50 and p99 from p99. */
  readonly addedP50: number
  readonly addedP99: number
  /** From each paid answer's `Server-Timing`: the gateway's own time, its waits on the chain, and on the seller. */
  readonly server: { readonly gateway: Split; readonly chain: Split; readonly seller: Split }
  /**
   * Measured here at the SDK's requests: the 402's round trip; the agent's side, from the 402's answer until it
   * presents the payment; the presented request's round trip (with any repeats the gateway asked for).
   */
  readonly client: { readonly challenge: Split; readonly agent: Split; readonly presented: Split }
  /**
   * Inside the agent's side. Sign-first: the gas station's round trip. Upfront: paying (from the 402's answer to
   * the execution's answer: vouching on chain, building and dry-running, signing, executing) and waiting for
   * finality (from the execution's answer to presenting: the proof's signature, then the checkpoint polls).
   */
  readonly agentParts: { readonly gasStation: Split; readonly pay: Split; readonly checkpointWait: Split }
  /** Presentations beyond one per call (409 NOT_FINAL, a signed payment presented again). */
  readonly repeatedPresentations: number
  readonly cpuPerCall: CpuPerOperation
  /**
   * The gateway's CPU per call while each of its requests was open (its /proc time read around each): the 402, the
   * gas station's request, the presented one. What `cpuPerCall.gateway` holds beyond them ran between requests.
   */
  readonly gatewayCpuByRequest: { readonly challenge: number; readonly gasStation: number; readonly presented: number }
}

export interface PaidCallFigures {
  readonly signFirst: FlowFigures
  readonly upfront: FlowFigures
}

/** The durations (ms) of a `Server-Timing` header, by name. */
const serverTiming = (header: string | null) =>
  new Map((header ?? "").split(",").flatMap((metric) => {
    const [name, ...params] = metric.split(";").map((part) => part.trim())
    const dur = params.find((param) => param.startsWith("dur="))
    return name === undefined || name === "" || dur === undefined ? [] : [[name, Number(dur.slice(4))] as const]
  }))

/** One paid call cut at the requests this process made for it (the fetch log), in ms; undefined without its 402 and presented request. */
const cutAt = (log: ReadonlyArray<Fetched>, resourceUrl: string) => {
  const own = log.filter((f) => f.url === resourceUrl)
  const challenge = own.find((f) => !f.paid)
  const presented = own.filter((f) => f.paid)
  const first = presented[0]
  const last = presented.at(-1)
  if (challenge === undefined || first === undefined || last === undefined) return undefined
  const execute = log.find((f) => f.url.endsWith("/ExecuteTransaction") && f.startMs >= challenge.endMs && f.endMs <= first.startMs)
  const gasStation = log.filter((f) => URL.parse(f.url)?.pathname === "/v1/gas-station")
  const cpu = (requests: ReadonlyArray<Fetched>) => requests.reduce((sum, f) => sum + f.cpuMs, 0)
  return {
    gatewayCpu: { challenge: challenge.cpuMs, gasStation: cpu(gasStation), presented: cpu(presented) },
    challenge: challenge.endMs - challenge.startMs,
    agent: first.startMs - challenge.endMs,
    presented: last.endMs - first.startMs,
    presentations: presented.length,
    gasStation: gasStation.length === 0 ? undefined : gasStation.reduce((sum, f) => sum + f.endMs - f.startMs, 0),
    pay: execute === undefined ? undefined : execute.endMs - challenge.endMs,
    checkpointWait: execute === undefined ? undefined : first.startMs - execute.endMs
  }
}

/** The mean of per-call figures. */
const perCall = (values: ReadonlyArray<number>) => values.reduce((sum, v) => sum + v, 0) / values.length

const defined = (values: ReadonlyArray<number | undefined>) => split(values.filter((v): v is number => v !== undefined))

/**
 * A seller's API behind the gateway, and an agent with a live grant paying for calls to it through the agent SDK,
 * one after another, first sign-first (the SDK's default: 402, the agent signs a payment with the gas station's
 * gas, presents it; the gateway verifies, forwards, then executes it) and then upfront (402, the agent pays on the
 * ledger, waits for the checkpoint, presents the digest; the gateway verifies and forwards). Each flow: the seller
 * called directly, a few warm-up calls, then the measured ones, with the CPU each process used counted over those
 * only, each answer's `Server-Timing` read, and this process's requests logged to cut the call into its parts.
 */
export const paidCalls = (wallets: Wallets, pids: { readonly gateway: number; readonly ledger: number }, upstream: { readonly url: string }) =>
  Effect.scoped(Effect.gen(function*() {
    const { entry, agentKey, manifest } = yield* payingAgent(wallets, upstream.url, "paid bench")
    const log = yield* fetchLog(() => cpuMs(pids.gateway))

    const flow = (payment: PaymentMode) =>
      Effect.gen(function*() {
        const agent = makeAgent({ manifest, signer: agentKey, client: wallets.sui, payment })
        yield* step(`${CALLS} paid calls ${payment}, and the seller called directly`)
        const direct: Array<number> = []
        for (let i = 0; i < CALLS; i++) {
          const from = performance.now()
          yield* Effect.promise(() => fetch(upstream.url).then((r) => r.text()))
          direct.push(performance.now() - from)
        }
        /** One paid call, timed and cut; a call the gateway did not settle, or that cannot be cut, ends the bench. */
        const paidCall = Effect.gen(function*() {
          log.take()
          const from = performance.now()
          const { response, receipt } = yield* agent.fetchPaid(entry.resourceUrl)
          const ms = performance.now() - from
          if (receipt === undefined) return yield* Effect.die(`a ${payment} paid call was answered ${response.status} without a receipt`)
          yield* Effect.promise(() => response.arrayBuffer())
          const parts = cutAt(log.take(), entry.resourceUrl)
          if (parts === undefined) return yield* Effect.die(`a ${payment} paid call made no 402 and presented request to cut it at`)
          return { ms, parts, timing: serverTiming(response.headers.get("server-timing")) }
        })
        for (let i = 0; i < WARM_UP_CALLS; i++) yield* paidCall
        const meter = cpuMeter(pids)
        const calls: Array<Effect.Success<typeof paidCall>> = []
        for (let i = 0; i < CALLS; i++) calls.push(yield* paidCall)
        const cpuPerCall = meter.per(CALLS)
        const paid = calls.map((c) => c.ms)
        const server = (name: string) => {
          const values = calls.map((c) => c.timing.get(name))
          return values.every((v) => v !== undefined && Number.isFinite(v))
            ? Effect.succeed(defined(values))
            : Effect.die(`a ${payment} paid answer had no ${name} in its Server-Timing`)
        }
        return {
          flow: payment,
          calls: CALLS,
          direct: split(direct),
          paid: split(paid),
          addedP50: median(paid) - median(direct),
          addedP99: percentile(paid, 99) - percentile(direct, 99),
          server: { gateway: yield* server("gateway"), chain: yield* server("chain"), seller: yield* server("seller") },
          client: {
            challenge: split(calls.map((c) => c.parts.challenge)),
            agent: split(calls.map((c) => c.parts.agent)),
            presented: split(calls.map((c) => c.parts.presented))
          },
          agentParts: {
            gasStation: defined(calls.map((c) => c.parts.gasStation)),
            pay: defined(calls.map((c) => c.parts.pay)),
            checkpointWait: defined(calls.map((c) => c.parts.checkpointWait))
          },
          repeatedPresentations: calls.reduce((sum, c) => sum + c.parts.presentations - 1, 0),
          cpuPerCall,
          gatewayCpuByRequest: {
            challenge: perCall(calls.map((c) => c.parts.gatewayCpu.challenge)),
            gasStation: perCall(calls.map((c) => c.parts.gatewayCpu.gasStation)),
            presented: perCall(calls.map((c) => c.parts.gatewayCpu.presented))
          }
        } satisfies FlowFigures
      })

    const signFirst = yield* flow("sign-first")
    const upfront = yield* flow("upfront")
    return { signFirst, upfront } satisfies PaidCallFigures
  }))
