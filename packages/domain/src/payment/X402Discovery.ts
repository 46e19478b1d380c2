import { Schema } from "effect"

/**
 * `/.well-known/x402`: the x402 discovery document crawlers (x402scan and
 * the like) read, version 1: the URLs of the paid resources (every live
 * service's resourceUrl, up to the listed bound) and how to pay them.
 */
export const X402Discovery = Schema.Struct({
  version: Schema.Literal(1),
  resources: Schema.Array(Schema.String),
  instructions: Schema.String
})
export type X402Discovery = typeof X402Discovery.Type
