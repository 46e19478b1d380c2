/**
 * What the sponsor holds against the floor its operator set (`SPONSOR_BALANCE_FLOOR_MIST`). Below the floor the
 * gas station stops sponsoring payments, so the sponsor keeps enough to pay for its own pool's upkeep and for the
 * payments it already built until the operator tops it up.
 */
export interface SponsorFunds {
  readonly status: "ok" | "below_floor"
  readonly balanceMist: bigint
  readonly floorMist: bigint
}

/** The sponsor's standing given its total SUI: below the floor when it holds less than the floor. */
export const sponsorFunds = (balanceMist: bigint, floorMist: bigint): SponsorFunds => ({
  status: balanceMist < floorMist ? "below_floor" : "ok",
  balanceMist,
  floorMist
})
