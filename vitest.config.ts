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
    pool: "forks"
  }
})
