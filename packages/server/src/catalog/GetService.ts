import { Effect } from "effect"
import { readLiveTerms } from "./ReadLiveTerms.ts"

/** A live service's entry at its active revision. */
export const getService = Effect.fn("Catalog.get")(function*(id: string) {
  return (yield* readLiveTerms(id)).entry
})
