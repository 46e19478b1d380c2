import { Context, type Effect } from "effect"

/**
 * Where the sponsor's SUI comes from when nobody funds it: the embedded
 * ledger's faucet in local mode. Absent on a live network, where the operator
 * funds `SPONSOR_KEY`'s address.
 */
export class SponsorFaucet extends Context.Service<SponsorFaucet, {
  /** What one `give` sends. */
  readonly amount: bigint
  give(recipient: string): Effect.Effect<void>
}>()("@gateway/server/SponsorFaucet") {}
