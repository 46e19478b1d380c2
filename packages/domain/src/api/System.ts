import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { documented } from "../Doc.ts"
import { Unavailable } from "../Errors.ts"

/**
 * A gas sponsor that needs its operator: below `SPONSOR_BALANCE_FLOOR_MIST` (the gas station answers 503 until it
 * is funded), or `unknown` when its funds could not be read. Not part of `ok`: such a replica still serves
 * everything else.
 */
export const SponsorHealth = Schema.Struct({
  status: documented(
    Schema.Literals(["below_floor", "unknown"]),
    "below_floor: the sponsor holds less than SPONSOR_BALANCE_FLOOR_MIST and the gas station refuses until it is funded; unknown: its balance could not be read.",
    "below_floor"
  ),
  /** The sponsor's SUI, in MIST, as last read (read at most every few seconds). */
  balanceMist: Schema.optionalKey(documented(
    Schema.String,
    "The sponsor's SUI balance as last read, in MIST (1 SUI = 10^9 MIST) as a decimal string; absent when status is unknown.",
    "40000000"
  )),
  floorMist: documented(Schema.String, "The operator's SPONSOR_BALANCE_FLOOR_MIST: the balance, in MIST as a decimal string, below which the gas station sponsors no payments.", "500000000")
})
export type SponsorHealth = typeof SponsorHealth.Type

export const Health = Schema.Struct({
  ok: documented(Schema.Boolean, "True when both the store and the chain answer; false otherwise, and then the status is 503 with this same body.", true),
  store: documented(Schema.Literals(["up", "down"]), "Whether the gateway's database answered within 2 seconds.", "up"),
  chain: documented(Schema.Literals(["up", "down"]), "Whether the Sui node the gateway reads answered within 2 seconds.", "up"),
  network: documented(Schema.String, "The chain this gateway serves, `sui:<network>`.", "sui:testnet"),
  /** Present only when the sponsor needs attention: absent when its funds are at or above the floor, or nothing is sponsored. */
  sponsor: Schema.optionalKey(SponsorHealth.annotateKey({
    description:
      "Present only when the gas sponsor needs its operator (below its floor, or its balance unreadable); absent when it is funded or nothing is sponsored. It does not make ok false."
  }))
})

/** The process serves HTTP: nothing else is asked. */
export const Live = Schema.Struct({ ok: documented(Schema.Literal(true), "Always true: the process answered.", true) })

/** The store answers and every migration this build knows has been applied. */
export const Ready = Schema.Struct({
  ok: documented(Schema.Literal(true), "Always true on a 200; a replica that is not ready answers 503 UNAVAILABLE instead.", true),
  store: documented(Schema.Literal("up"), "The database answered.", "up"),
  migrations: documented(Schema.Literal("done"), "Every migration this build knows has been applied.", "done")
})

export class SystemApi extends HttpApiGroup.make("system", { topLevel: true }).add(
  HttpApiEndpoint.get("health", "/health", { success: Health }).annotateMerge(OpenApi.annotations({
      summary: "Health",
      description: "Whether the store and the chain answer, and the network served; and `sponsor` when the gas sponsor needs its operator: below SPONSOR_BALANCE_FLOOR_MIST (the gas station refuses until it is funded) or its funds unreadable. A low sponsor does not make the replica unhealthy: the status stays 200."
    })),
  HttpApiEndpoint.get("live", "/health/live", { success: Live }).annotateMerge(OpenApi.annotations({
    summary: "Liveness probe",
    description: "200 `{ ok: true }` whenever the process serves HTTP; it asks neither the store nor the chain. For an orchestrator's liveness probe (and the container HEALTHCHECK): failing it means the process is wedged and should be restarted. Do not route traffic on it."
  })),
  HttpApiEndpoint.get("ready", "/health/ready", { success: Ready, error: Unavailable }).annotateMerge(OpenApi.annotations({
    summary: "Readiness probe",
    description: "200 when the store answers and every migration this build knows has been applied; otherwise 503 UNAVAILABLE with `reason` `store_unreachable` or `migrations_pending`. For a load balancer's or orchestrator's readiness check: send traffic only to replicas answering 200, but do not restart them on 503. The chain is deliberately not part of it (a Sui node blip must not take every replica out of the load balancer; chain-backed routes answer 503 on their own meanwhile, and `/health` reports the chain)."
  }))
) {}
