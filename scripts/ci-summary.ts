import { readFileSync } from "node:fs"

/** Prints one `N passed, N failed` line over vitest JSON reports, the line CI reads. */
const totals = process.argv.slice(2).reduce(
  (acc, file) => {
    const report = JSON.parse(readFileSync(file, "utf8")) as {
      numPassedTests: number
      numFailedTests: number
      numPendingTests: number
    }
    return {
      passed: acc.passed + report.numPassedTests,
      failed: acc.failed + report.numFailedTests,
      skipped: acc.skipped + report.numPendingTests
    }
  },
  { passed: 0, failed: 0, skipped: 0 }
)
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`)
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1)
