import { Effect } from "effect"
import { describeEnd, type Ended, type Event, type Replica } from "./Replicas.ts"

export interface FaultOutcome {
  readonly timeline: Array<Event>
  /** How the SIGKILLed replica ended, and whether its restart came back ready. */
  killed: Ended | undefined
  restarted: boolean
  /** How the SIGTERMed replica ended: a graceful drain exits 0. */
  terminated: Ended | undefined
  /** The replica names each fault hit, for telling its in-flight requests apart. */
  readonly killedName: string
  readonly terminatedName: string
  /** Seconds (since the lanes started) of the kill, to match lost requests against. */
  killedAt: number | undefined
}

const sleepUntil = (atMs: number) => Effect.sleep(Math.max(0, atMs - Date.now()))

/**
 * The faults, on the clock of the lanes' start (`t0`): at a third of the run `kill` is SIGKILLed and
 * started again (same environment, same port) at once, taking requests again once ready; at two thirds `term` is SIGTERMed, left to drain and
 * exit, and not restarted. Every step goes on the timeline with its time and how the process ended.
 */
/** What the faults need of the proxy: taking a replica out of rotation and back, and its requests in flight. */
export interface Rotation {
  readonly rotate: (name: string, inRotation: boolean) => void
  readonly inFlight: (name: string) => number
}

export const runFaults = (kill: Replica, term: Replica, t0: number, seconds: number, proxy: Rotation) => {
  const outcome: FaultOutcome = {
    timeline: [], killed: undefined, restarted: false, terminated: undefined,
    killedName: kill.name, terminatedName: term.name, killedAt: undefined
  }
  const at = () => Number(((Date.now() - t0) / 1000).toFixed(1))
  const note = (replica: string, what: string) => Effect.sync(() => outcome.timeline.push({ atSeconds: at(), replica, what }))
  const program = Effect.gen(function*() {
    yield* sleepUntil(t0 + (seconds * 1000) / 3)
    outcome.killedAt = at()
    yield* note(kill.name, `SIGKILL sent, ${proxy.inFlight(kill.name)} requests in flight on it`)
    outcome.killed = yield* Effect.promise(() => kill.signal("SIGKILL"))
    yield* note(kill.name, `ended: ${describeEnd(outcome.killed)}`)
    // Out of the proxy's rotation while it starts, back once `/health/ready` answers, as a balancer's probe would have it.
    proxy.rotate(kill.name, false)
    const readyMs = yield* Effect.result(Effect.tryPromise(kill.start))
    outcome.restarted = readyMs._tag === "Success"
    if (outcome.restarted) proxy.rotate(kill.name, true)
    yield* note(kill.name, readyMs._tag === "Success" ? `restarted on the same port, ready in ${(readyMs.success / 1000).toFixed(1)} s` : `restart failed: ${String(readyMs.failure)}`)

    yield* sleepUntil(t0 + (seconds * 2000) / 3)
    yield* note(term.name, `SIGTERM sent (not restarted), ${proxy.inFlight(term.name)} requests in flight on it`)
    const sent = Date.now()
    outcome.terminated = yield* Effect.promise(() => term.signal("SIGTERM"))
    yield* note(term.name, `ended: ${describeEnd(outcome.terminated)} after ${((Date.now() - sent) / 1000).toFixed(1)} s`)
  })
  return { outcome, program }
}
