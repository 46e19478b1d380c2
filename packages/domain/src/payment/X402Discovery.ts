import { Schema } from "effect"
import { documented } from "../Doc.ts"

/**
 * `/.well-known/x402`: the x402 discovery document crawlers (x402scan and
 * the like) read, version 1: the URLs of the paid resources (every live
 * service's resourceUrl, up to the listed bound) and how to pay them.
 */
export const X402Discovery = Schema.Struct({
  version: documented(Schema.Literal(1), "The discovery document's format version: 1.", 1),
  resources: documented(
    Schema.Array(Schema.String),
    "The resourceUrl of every live service (at most 1000; the full catalog pages on at /v1/services): each answers 402 with its payment offers.",
    ["https://gateway.example/v1/pay/svc_0123456789abcdefghijklmnop"]
  ),
  instructions: documented(
    Schema.String,
    "How to pay the resources, in one paragraph for an agent: the offers each 402 carries, and where SKILL.md and the service terms are.",
    "Each resource answers 402 with two x402 v2 offers: scheme exact (sign-first …) and scheme sui-delegate (upfront), and an MPP challenge (method sui). Pay it on sui:testnet through a delegated grant, or with an exact transfer from your own coins: https://gateway.example/SKILL.md; terms of each service: https://gateway.example/v1/services."
  )
})
export type X402Discovery = typeof X402Discovery.Type
