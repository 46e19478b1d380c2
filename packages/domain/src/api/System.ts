import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

/**
 * A gas sponsor that needs its operator: below `SPONSOR_BALANCE_FLOOR_MIST` (the gas station answers 503 until it
 * is funded), or `unknown` when its funds could not be read. Not part of `ok`: such a replica still serves
 * everything else.
 */
export const SponsorHealth = Schema.Struct({
  status: Schema.Literals(["below_floor", "unknown"]),
  /** The sponsor's SUI, in MIST, as last read (read at most every few seconds). */
  balanceMist: Schema.optionalKey(Schema.String),
  floorMist: Schema.String
})
export type SponsorHealth = typeof SponsorHealth.Type

export const Health = Schema.Struct({
  ok: Schema.Boolean,
  store: Schema.Literals(["up", "down"]),
  chain: Schema.Literals(["up", "down"]),
  network: Schema.String,
  /** Present only when the sponsor needs attention: absent when its funds are at or above the floor, or nothing is sponsored. */
  sponsor: Schema.optionalKey(SponsorHealth)
})

export class SystemApi extends HttpApiGroup.make("system", { topLevel: true }).add(
  HttpApiEndpoint.get("health", "/health", { success: Health }).annotateMerge(OpenApi.annotations({
      summary: "Health",
      description: "Whether the store and the chain answer, and the network served; and `sponsor` when the gas sponsor needs its operator: below SPONSOR_BALANCE_FLOOR_MIST (the gas station refuses until it is funded) or its funds unreadable. A low sponsor does not make the replica unhealthy: the status stays 200."
    }))
) {}
