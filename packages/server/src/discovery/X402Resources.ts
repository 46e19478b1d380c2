import { Effect } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { Invalid, Unavailable } from "@gateway/domain/Errors"
import type { X402Discovery } from "@gateway/domain/payment/X402Discovery"
import { Catalog } from "../catalog/Catalog.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"

/** The most resource URLs `/.well-known/x402` lists; the catalog pages on at /v1/services. */
const X402_RESOURCES_MAX = 1000

/** Page by page up to X402_RESOURCES_MAX, so one request's work stays bounded however large the catalog grows. */
const resourceUrls = (
  catalog: Catalog["Service"],
  cursor: string | undefined,
  found: ReadonlyArray<string>
): Effect.Effect<ReadonlyArray<string>, Invalid | Unavailable> =>
  Effect.flatMap(catalog.list({ limit: 200, ...(cursor === undefined ? {} : { cursor }) }), (page) => {
    const all = [...found, ...page.services.map((s) => s.resourceUrl)]
    return page.nextCursor === null || all.length >= X402_RESOURCES_MAX
      ? Effect.succeed(all.slice(0, X402_RESOURCES_MAX))
      : resourceUrls(catalog, page.nextCursor, all)
  })

/** `/.well-known/x402`: the live services' resource URLs, and where to read how to pay them. */
export const x402Resources = Effect.fn("AgentDocuments.x402")(function*() {
  const urls = yield* resourceUrls(yield* Catalog, undefined, [])
  const { origin } = yield* PublicUrl
  const { network } = yield* Chain
  const discovery: X402Discovery = {
    version: 1,
    resources: urls,
    instructions: `Each resource answers 402 with two x402 v2 offers: scheme exact (sign-first: sign the payment, the gateway executes it only after the seller answered; gas sponsored through extra.gasStation) and scheme sui-delegate (upfront), and an MPP challenge (method sui). Pay it on ${network} through a delegated grant, or with an exact transfer from your own coins: ${origin}/SKILL.md; terms of each service: ${origin}/v1/services.`
  }
  return discovery
})
