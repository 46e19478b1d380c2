import type { GasCoinRef } from "@gateway/domain/sponsorship/SponsoredTransactionData"
import type { Taken } from "../limits/RateLimits.ts"

/** A sponsored transaction the gateway built, holding its one gas coin until `expiresAtMs`. */
export interface Build {
  readonly coin: GasCoinRef
  /** The owner it was built for: its sender. */
  readonly holder: string
  readonly digest: string
  readonly gasBudget: bigint
  /** The budget windows `gasBudget` was taken from, so what is not spent goes back to them. */
  readonly taken: ReadonlyArray<Taken>
  readonly expiresAtMs: number
  readonly epoch: bigint
}

/** A build as the store keeps it: reserved until it is co-signed, once. */
export interface StoredBuild extends Build {
  readonly state: "reserved" | "signed"
}
