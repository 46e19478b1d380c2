import { Clock, Context, Effect, Layer } from "effect"

/**
 * Moves the Effect clock forward by hand. Provided beneath a test server, it
 * is the clock the server and its LocalLedger read, so a jump is time passing
 * for expiry, pending windows and the chain's `Clock` object alike.
 */
export class ClockJumps extends Context.Service<ClockJumps, {
  /** The clock's time now, jumps included. */
  readonly now: Effect.Effect<number>
  jump(ms: number): Effect.Effect<void>
}>()("@gateway/server/test/ClockJumps") {
  /**
   * Real time plus every jump so far. Sleeping and monotonic time stay real,
   * so timers, polling and retries behave as before a jump.
   */
  static readonly layer = Layer.unwrap(
    Effect.gen(function*() {
      const base = yield* Clock.Clock
      let offset = 0
      const millis = () => base.currentTimeMillisUnsafe() + offset
      const nanos = () => base.currentTimeNanosUnsafe() + BigInt(offset) * 1_000_000n
      const clock: Clock.Clock = {
        currentTimeMillisUnsafe: millis,
        currentTimeMillis: Effect.sync(millis),
        currentTimeNanosUnsafe: nanos,
        currentTimeNanos: Effect.sync(nanos),
        monotonicTimeNanosUnsafe: () => base.monotonicTimeNanosUnsafe(),
        monotonicTimeNanos: base.monotonicTimeNanos,
        sleep: (duration) => base.sleep(duration)
      }
      return Layer.merge(
        Layer.succeed(Clock.Clock, clock),
        Layer.succeed(ClockJumps, ClockJumps.of({
          now: Effect.sync(millis),
          jump: (ms) =>
            Effect.sync(() => {
              offset += ms
            })
        }))
      )
    })
  )
}
