import { Clock, Effect } from "effect"
import type { PaidCallResult } from "./PaidCallRequest.ts"

/**
 * Where one paid call's time went, for `Server-Timing` (W3C): the chain's calls, the seller, and the rest, which is
 * the gateway's own. `npm run bench` splits the added latency with it; it names durations only, nothing of the call.
 */
export interface CallTiming {
  readonly startedNs: bigint
  chainNs: bigint
  sellerNs: bigint
}

export const startTiming = Effect.map(Clock.currentTimeNanos, (startedNs): CallTiming => ({ startedNs, chainNs: 0n, sellerNs: 0n }))

/** Runs `effect`, adding its wall time to the timing's `part`. */
export const timedPart = <A, E, R>(timing: CallTiming, part: "chainNs" | "sellerNs", effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Clock.currentTimeNanos, (from) =>
    Effect.ensuring(effect, Effect.map(Clock.currentTimeNanos, (to) => {
      timing[part] += to - from
    })))

const ms = (ns: bigint) => (Number(ns) / 1e6).toFixed(2)

/** The answer with its `Server-Timing` header: chain, seller and gateway (the rest) in milliseconds. */
export const withServerTiming = (result: PaidCallResult, timing: CallTiming) =>
  Effect.map(Clock.currentTimeNanos, (nowNs): PaidCallResult => {
    if (result._tag !== "Forwarded") return result
    const total = nowNs - timing.startedNs
    const own = total - timing.chainNs - timing.sellerNs
    const header = `chain;dur=${ms(timing.chainNs)}, seller;dur=${ms(timing.sellerNs)}, gateway;dur=${ms(own > 0n ? own : 0n)}`
    return { ...result, headers: { ...result.headers, "server-timing": header } }
  })
