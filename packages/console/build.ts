import { existsSync } from "node:fs"
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises"
import { basename, join } from "node:path"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import { build } from "esbuild"

const root = import.meta.dirname
const finalDist = join(root, "dist")

/**
 * Bundles the console into `dist/`: `index.html`, and under `dist/console/`
 * one minified JS file and one CSS file named by their content hash (so they
 * can be cached for good), each with `.br` and `.gz` siblings the gateway
 * serves to browsers that accept them. It builds beside `dist/` and moves the
 * result in whole, so a gateway never reads half a build; with `replace`
 * false, a build another process finished meanwhile is kept.
 */
export const buildConsole = async (options: { readonly replace: boolean } = { replace: true }) => {
  const dist = `${finalDist}.${process.pid}`
  const assets = join(dist, "console")
  await rm(dist, { recursive: true, force: true })
  await mkdir(assets, { recursive: true })
  const result = await build({
    entryPoints: [join(root, "src/main.ts"), join(root, "src/console.css")],
    outdir: assets,
    entryNames: "[name]-[hash]",
    bundle: true,
    minify: true,
    format: "esm",
    target: ["chrome111", "firefox114", "safari16.4"],
    platform: "browser",
    // The workspace packages as TypeScript source, as the rest of the repository runs them.
    conditions: ["@gateway/source"],
    legalComments: "none",
    metafile: true,
    logLevel: "warning"
  })
  const outputs = Object.keys(result.metafile.outputs)
  const named = (ext: string) => {
    const file = outputs.find((o) => o.endsWith(ext))
    if (file === undefined) throw new Error(`esbuild wrote no ${ext} file`)
    return file
  }
  const [js, css] = [named(".js"), named(".css")]
  const template = await readFile(join(root, "src/index.html"), "utf8")
  await writeFile(join(dist, "index.html"), template.replace("{{js}}", basename(js)).replace("{{css}}", basename(css)))
  for (const file of [js, css, join(dist, "index.html")]) {
    const bytes = await readFile(file)
    await writeFile(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
    await writeFile(`${file}.gz`, gzipSync(bytes, { level: 9 }))
  }
  if (options.replace) await rm(finalDist, { recursive: true, force: true })
  // Another process may finish first, even between the check and the move: its build is as good as this one.
  const moved = existsSync(finalDist) ? false : await rename(dist, finalDist).then(() => true, () => existsSync(finalDist) ? false : Promise.reject(new Error(`could not move the build to ${finalDist}`)))
  if (!moved) await rm(dist, { recursive: true, force: true })
  return { dist: finalDist, js: basename(js), css: basename(css) }
}

if (import.meta.main) {
  const built = await buildConsole()
  console.log(`console built in ${built.dist}: ${built.js}, ${built.css}`)
}
