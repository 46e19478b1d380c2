import { Effect } from "effect"
import { perMinute } from "@gateway/domain/limits/Quota"
import { AppConfig } from "../Config.ts"
import { RateLimits } from "../limits/RateLimits.ts"
import { unauthenticated } from "./SessionErrors.ts"

/** Who asked, as the sign-in limits count it: the network address the request came from. */
export type ClientAddress = string

const tooMany = { message: "Too many sign-in attempts: try again after Retry-After seconds", reason: "sign_in_rate_limited" }

/** One unit of the asking client's budget: a challenge asked for, or a sign-in that failed. */
export const throttleClient = Effect.fnUntraced(function*(client: ClientAddress) {
  const config = yield* AppConfig
  return yield* (yield* RateLimits).take(`sign_in_client:${client}`, perMinute(config.signInChallengesPerMinute), tooMany)
})

/** One unit of the address's budget: only a verified signature, which only that address's key can make, spends it. */
export const throttleAddress = Effect.fnUntraced(function*(address: string) {
  const config = yield* AppConfig
  return yield* (yield* RateLimits).take(`sign_in_address:${address}`, perMinute(config.signInPerMinute), tooMany)
})

/** A failed sign-in costs the client that tried, never the address it named. */
export const refuseSignIn = (client: ClientAddress, reason: string) => Effect.andThen(throttleClient(client), Effect.fail(unauthenticated(reason)))
