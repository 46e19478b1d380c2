import { Schema } from "effect"

/** One Move call of a fetched transaction, its arguments resolved to JSON values. */
export const ChainMoveCall = Schema.Struct({
  package: Schema.String,
  module: Schema.String,
  function: Schema.String,
  typeArguments: Schema.Array(Schema.String),
  /** Pure arguments decoded (u64 as decimal strings, bytes as hex), objects as their ids. */
  arguments: Schema.Array(Schema.Unknown)
})
export type ChainMoveCall = typeof ChainMoveCall.Type

export const ChainEvent = Schema.Struct({
  type: Schema.String,
  sender: Schema.String,
  parsedJson: Schema.Unknown,
  /** The event's BCS contents, base64: what verifiers decode and trust. */
  bcs: Schema.String
})
export type ChainEvent = typeof ChainEvent.Type

/** A transaction as fetched from the chain by digest: what verifiers judge. */
export const ChainTransaction = Schema.Struct({
  digest: Schema.String,
  sender: Schema.String,
  status: Schema.Literals(["success", "failure"]),
  error: Schema.NullOr(Schema.String),
  /** The checkpoint that includes it; null while it is not yet final. */
  checkpoint: Schema.NullOr(Schema.String),
  timestampMs: Schema.String,
  calls: Schema.Array(ChainMoveCall),
  events: Schema.Array(ChainEvent)
})
export type ChainTransaction = typeof ChainTransaction.Type
