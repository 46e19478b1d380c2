import { defaultServerConditions } from "vite"
import { defineConfig } from "vitest/config"

/** The workspace packages resolve to their TypeScript source (package.json `exports`), never to a build. */
const conditions = ["@gateway/source", ...defaultServerConditions]

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
    maxWorkers: 3
  }
})
