import { readFileSync, writeFileSync } from "node:fs"
import { MOVE_TESTS_FILE, renderMoveVectorTests, withGeneratedBlock } from "../packages/local-ledger/test/vectors/MoveVectorTests.ts"
import { ModuleVectors } from "../packages/local-ledger/test/vectors/Vectors.ts"

/** Rewrites the generated Move tests of the vector rows in place (`npm run move-vectors`); the rest of the file is left as it is. */
const path = new URL(`../${MOVE_TESTS_FILE}`, import.meta.url)
const before = readFileSync(path, "utf8")
const after = withGeneratedBlock(before, renderMoveVectorTests(ModuleVectors))
if (after === before) {
  console.log(`${MOVE_TESTS_FILE}: up to date (${ModuleVectors.length} rows)`)
} else {
  writeFileSync(path, after)
  console.log(`${MOVE_TESTS_FILE}: rewrote the tests of ${ModuleVectors.length} rows`)
}
