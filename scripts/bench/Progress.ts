import { Effect } from "effect"

/** Progress on stderr, so a person running the bench sees where it is; the results go to stdout. */
export const step = (message: string) => Effect.sync(() => process.stderr.write(`▸ ${message}\n`))
