import { Effect, Schema } from "effect"
import type { HeldCoin } from "@gateway/domain/sponsorship/CoinPoolPlan"
import { BigIntColumn, Count } from "../storage/Codecs.ts"
import type { StoredBuild } from "./SponsorBuild.ts"

/** `budget_taken`: the budget windows a build took from, as JSON. */
const TakenJson = Schema.fromJsonString(Schema.Array(Schema.Struct({ bucket: Schema.String, startMs: Schema.Number, amount: Schema.Number })))
const State = Schema.Literals(["reserved", "signed"])

export const BuildRow = Schema.Struct({
  coinId: Schema.String,
  coinVersion: Schema.String,
  coinDigest: Schema.String,
  holder: Schema.String,
  digest: Schema.String,
  state: State,
  gasBudget: BigIntColumn,
  budgetTaken: TakenJson,
  expiresAt: Count,
  expirationEpoch: BigIntColumn
})

export const HeldRow = Schema.Struct({ coinId: Schema.String, coinVersion: Schema.String, state: State, expirationEpoch: BigIntColumn })

export const buildOf = (row: typeof BuildRow.Type): StoredBuild => ({
  coin: { objectId: row.coinId, version: row.coinVersion, digest: row.coinDigest },
  holder: row.holder,
  digest: row.digest,
  state: row.state,
  gasBudget: row.gasBudget,
  taken: row.budgetTaken,
  expiresAtMs: row.expiresAt,
  epoch: row.expirationEpoch
})

export const heldOf = (row: typeof HeldRow.Type): HeldCoin => ({ coinId: row.coinId, coinVersion: row.coinVersion, state: row.state, epoch: row.expirationEpoch })

/** What each deleted build had taken, from the `budget_taken` its DELETE returned. */
export const takenOf = (rows: ReadonlyArray<{ readonly budgetTaken: unknown }>) =>
  Effect.forEach(rows, (row) => Schema.decodeUnknownEffect(TakenJson)(row.budgetTaken))
