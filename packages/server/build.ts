import { rename } from "node:fs/promises"
import { join } from "node:path"
import { build } from "esbuild"

const root = import.meta.dirname
const outfile = join(root, "dist/main.mjs")

/**
 * Bundles the gateway (`src/main.ts` and everything it imports) into one ES
 * module, `dist/main.mjs`, which `npm start` runs. Loading ~2,000 source files
 * kept every file's text (effect's and the SDKs' long doc comments included)
 * in V8's heap: the bundle drops the comments and the module graph, which
 * lowers idle memory by about 80 MiB and start-up by the cost of resolving and
 * compiling each file. Names are kept and nothing is renamed, so stack traces
 * stay readable. PGlite stays outside: it reads its WebAssembly and data files
 * from beside its own module. Written beside the target and moved in, so a
 * starting gateway never reads half a build.
 */
export const buildServer = async () => {
  const partial = `${outfile}.${process.pid}`
  await build({
    entryPoints: [join(root, "src/main.ts")],
    outfile: partial,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    // The workspace packages as TypeScript source, as the rest of the repository runs them.
    conditions: ["@gateway/source"],
    // fs-native-extensions loads its prebuilt addon from beside its own module too.
    external: ["@electric-sql/pglite", "@electric-sql/pglite/*", "fs-native-extensions"],
    keepNames: true,
    legalComments: "none",
    // Some CommonJS dependencies call `require`; an ES module has none of its own.
    banner: { js: "import { createRequire as __createRequire } from \"node:module\"; const require = __createRequire(import.meta.url);" },
    logLevel: "warning"
  })
  await rename(partial, outfile)
  return outfile
}

if (import.meta.main) {
  const started = performance.now()
  const built = await buildServer()
  process.stderr.write(`gateway built in ${Math.round(performance.now() - started)} ms: ${built}\n`)
}
