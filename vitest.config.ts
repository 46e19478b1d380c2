import { defaultServerConditions } from "vite"
import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/** The workspace packages resolve to their TypeScript source (package.json `exports`), never to a build. */
const conditions = ["@gateway/source", ...defaultServerConditions]

/**
 * These files run far longest (packing and installing the SDKs; the signer model and the paid-call
 * properties). Without an earlier run's durations (a fresh clone, CI after `npm ci`) vitest starts the
 * largest files first, which left the run ending on one of these alone: they start first instead.
 */
const LONGEST = ["client/test/Pack.test.ts", "server/test/signers/SignerModel.test.ts", "server/test/paidCalls/PaidCallProperties.test.ts"]

class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>) {
    const rank = (file: TestSpecification) => {
      const at = LONGEST.findIndex((name) => file.moduleId.endsWith(name))
      return at < 0 ? LONGEST.length : at
    }
    // A stable sort: the rest keeps vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
  }
}

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@gateway/source"] } },
  test: {
    include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Every file loads the same graph (effect, the Sui SDK, PGlite, the gateway): a worker keeps it across files
    // instead of a fresh fork per file evaluating it again. Each file still builds its own server and store.
    isolate: false,
    // Most files spend much of their time waiting on the ledger's checkpoints and the agent's NOT_FINAL retries,
    // so one worker more than cores keeps both busy meanwhile.
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
    // The browser tests drive the built console: rebuilt first whenever its sources are newer.
    globalSetup: ["packages/console/test/support/FreshConsole.ts"]
  }
})
