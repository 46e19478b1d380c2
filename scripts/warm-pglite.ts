// `npm install`'s prepare: the embedded store's fresh-cluster templates, made once per PGlite version, so the
// first `npm start` neither runs initdb (about 2 s) nor extracts the cluster through PGlite (about 0.9 s).
import { warmTemplates } from "../packages/server/src/storage/PgliteTemplate.ts"

const started = performance.now()
// Only a speed-up: a start without the templates makes the cluster itself, so a failure here never fails the install.
await warmTemplates().then(
  () => process.stderr.write(`embedded store templates ready in ${Math.round(performance.now() - started)} ms\n`),
  (error: unknown) => process.stderr.write(`embedded store templates not made (the first start will make its cluster): ${String(error)}\n`)
)
