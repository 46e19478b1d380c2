import { Context, Duration, Effect, Layer, Schedule } from "effect"
import { SuiNode } from "../../sui/SuiNode.ts"

/** How often the epoch's end is read again: epochs last a day on Sui, and a challenge lasts minutes. */
const REFRESH = Duration.seconds(30)

/**
 * When the chain's current epoch ends (its start plus the epoch duration), read in the background so that minting
 * a 402 reads nothing; undefined until known, or when the node does not say.
 */
export class EpochEnd extends Context.Service<EpochEnd, {
  endsAtMs(): number | undefined
}>()("@gateway/server/EpochEnd") {
  static readonly layer = Layer.effect(
    EpochEnd,
    Effect.gen(function*() {
      const client = yield* SuiNode
      let endsAtMs: number | undefined
      const read = Effect.tryPromise(() => client.core.getCurrentSystemState()).pipe(
        Effect.map(({ systemState }) => {
          const start = Number(systemState.epochStartTimestampMs)
          const duration = Number(systemState.parameters.epochDurationMs)
          endsAtMs = Number.isFinite(start) && duration > 0 ? start + duration : undefined
        }),
        Effect.ignore
      )
      yield* Effect.forkScoped(Effect.repeat(read, Schedule.spaced(REFRESH)))
      return EpochEnd.of({ endsAtMs: () => endsAtMs })
    })
  )
}
