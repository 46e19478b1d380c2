import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect, Predicate, Result } from "effect"
import { SqlClient } from "effect/sql"
import { type GatewayClient, signIn } from "@gateway/client"

/** Sign-ins one address may complete per minute on every replica together (SIGN_IN_PER_MINUTE); each lane's owner signs in once or twice. */
export const SIGN_IN_LIMIT = 10
/** Sign-ins of one key the burst tries at once, spread over the replicas by the proxy. */
const BURST = 3 * SIGN_IN_LIMIT
/** A burst this close to a minute's end could straddle two fixed windows, two budgets: it waits for the next minute instead. */
const WINDOW_MARGIN_MS = 5_000

export interface LimitCheck {
  readonly limit: number
  readonly attempts: number
  readonly accepted: number
  readonly limited: number
  /** Attempts that ended otherwise (a replica lost under one, say): the budget they would have taken is unknown. */
  readonly other: ReadonlyArray<string>
  /** The store's counter for the address, per window: what every replica added. */
  readonly stored: ReadonlyArray<number>
  readonly held: boolean
}

/** An error's code and reason: the proxy's own 503s name the replica lost in `reason`. */
const codeOf = (error: unknown) =>
  Predicate.hasProperty(error, "code") && typeof error.code === "string"
    ? `${error.code}${Predicate.hasProperty(error, "reason") && typeof error.reason === "string" ? ` ${error.reason}` : ""}`
    : String(error)

/**
 * The per-address sign-in limit, counted in the store, held across replicas: one key signs in BURST times
 * at once through the proxy (round robin, so every replica admits some), and exactly SIGN_IN_LIMIT may
 * succeed; the rest get 429. The store's counter for that address must equal the sign-ins admitted.
 */
export const signInBurst = (client: GatewayClient) =>
  Effect.gen(function*() {
    const msLeft = 60_000 - (Date.now() % 60_000)
    if (msLeft < WINDOW_MARGIN_MS) yield* Effect.sleep(msLeft + 100)
    const key = new Ed25519Keypair()
    const outcomes = yield* Effect.forEach(Array.from({ length: BURST }), () => Effect.result(signIn(client, key)), { concurrency: "unbounded" })
    const failures = outcomes.flatMap((o) => (Result.isFailure(o) ? [codeOf(o.failure)] : []))
    const accepted = outcomes.length - failures.length
    const limited = failures.filter((code) => code.startsWith("RATE_LIMITED")).length
    const other = failures.filter((code) => !code.startsWith("RATE_LIMITED"))
    const sql = yield* SqlClient.SqlClient
    const hex = key.toSuiAddress().slice(2)
    const rows = yield* sql<{ used: string | number }>`SELECT used FROM usage_counters WHERE bucket LIKE ${`sign_in_address:%${hex}`}`
    const stored = rows.map((r) => Number(r.used))
    const held = stored.every((used) => used <= SIGN_IN_LIMIT) &&
      stored.reduce((a, b) => a + b, 0) === accepted &&
      accepted === Math.min(SIGN_IN_LIMIT, BURST - other.length)
    return { limit: SIGN_IN_LIMIT, attempts: BURST, accepted, limited, other, stored, held } satisfies LimitCheck
  })
