import { Effect, type Context } from "effect"

/**
 * Binds a feature's use cases to the services its layer picked: each use case
 * reads them from its context, so a call keeps its own clock, tracer and parent
 * span, and the service record exposes them with nothing left to provide.
 */
export const withServices = <S>(services: Context.Context<S>) =>
<Args extends ReadonlyArray<unknown>, A, E>(useCase: (...args: Args) => Effect.Effect<A, E, S>) =>
(...args: Args): Effect.Effect<A, E> => Effect.provideContext(useCase(...args), services)
