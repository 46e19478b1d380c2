import { readFileSync } from "node:fs"
import { join } from "node:path"

const ROOT = new URL("../../../../", import.meta.url).pathname

/** The SDKs packed as tarballs, each from `packages/<folder>`. */
export const PUBLISHED = ["@gateway/domain", "@gateway/chain", "@gateway/client", "@gateway/sui-pay", "@gateway/agent-mcp"]

/** Where the READMEs put the tarballs: `/path/to/` is the reader's own path, which a test substitutes. */
export const TARBALLS_PLACEHOLDER = "/path/to/gateway-packages"

const folderOf = (name: string) => name.replace("@gateway/", "")

interface PackageJson {
  readonly dependencies?: Record<string, string>
}

const packageJson = (name: string): PackageJson => JSON.parse(readFileSync(join(ROOT, "packages", folderOf(name), "package.json"), "utf8"))

/** A README of the repository: its path from the root, and the packages its install line is for. */
export interface Readme {
  readonly path: string
  readonly packages: ReadonlyArray<string>
}

export const READMES: ReadonlyArray<Readme> = [
  { path: "packages/client/README.md", packages: ["@gateway/client"] },
  { path: "packages/sui-pay/README.md", packages: ["@gateway/sui-pay"] },
  { path: "packages/agent-mcp/README.md", packages: ["@gateway/agent-mcp"] },
  { path: "README.md", packages: PUBLISHED }
]

export const readmeText = (readme: Readme) => readFileSync(join(ROOT, readme.path), "utf8")

/** The fenced blocks of a markdown text, with their language. */
export const fencedBlocks = (markdown: string) =>
  [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map(([, lang = "", body = ""]) => ({ lang, body }))

/** The README's one install line: in a `sh` block, beginning `npm install`, installing the tarballs. */
export const installLine = (markdown: string): string => {
  const lines = fencedBlocks(markdown)
    .filter((block) => block.lang === "sh")
    .flatMap((block) => block.body.split("\n"))
    .filter((line) => line.startsWith("npm install ") && line.includes(`${TARBALLS_PLACEHOLDER}/`))
  if (lines.length !== 1) throw new Error(`expected one install line of the tarballs, found ${lines.length}`)
  return lines[0] ?? ""
}

/** The README's one `js` block that `pick` selects, e.g. the one a reader saves as a file. */
export const jsBlock = (markdown: string, pick: (body: string) => boolean): string => {
  const found = fencedBlocks(markdown).filter((block) => block.lang === "js" && pick(block.body))
  if (found.length !== 1) throw new Error(`expected one such js block, found ${found.length}`)
  return found[0]?.body ?? ""
}

/** The line's arguments after `npm install`, split as `sh` would (none of them is quoted). */
const argumentsOf = (line: string) => line.slice("npm install ".length).trim().split(/\s+/)

/** The packages whose tarballs the line installs: `gateway-<folder>-*.tgz` names one, `*.tgz` all of them. */
export const tarballsNamed = (line: string): ReadonlyArray<string> =>
  argumentsOf(line)
    .filter((arg) => arg.startsWith(`${TARBALLS_PLACEHOLDER}/`))
    .flatMap((arg) => {
      const file = arg.slice(TARBALLS_PLACEHOLDER.length + 1)
      if (file === "*.tgz") return PUBLISHED
      return PUBLISHED.filter((name) => file === `gateway-${folderOf(name)}-*.tgz`)
    })

/** The registry packages the line installs, as `{ name, version }` (`version` empty when not pinned). */
export const registryPackages = (line: string) =>
  argumentsOf(line)
    .filter((arg) => !arg.startsWith("/"))
    .map((arg) => {
      const at = arg.lastIndexOf("@")
      return at > 0 ? { name: arg.slice(0, at), version: arg.slice(at + 1) } : { name: arg, version: "" }
    })

/** `names` with every `@gateway/…` package they depend on, transitively: what one install must hold. */
export const withSiblings = (names: ReadonlyArray<string>): ReadonlyArray<string> => {
  const all = new Set<string>()
  const visit = (name: string) => {
    if (all.has(name)) return
    all.add(name)
    Object.keys(packageJson(name).dependencies ?? {}).filter((dep) => dep.startsWith("@gateway/")).forEach(visit)
  }
  names.forEach(visit)
  return [...all].sort()
}

/** The version of `name` the tarballs depend on (when one does), else the repository's locked one. */
export const expectedVersion = (name: string): string | undefined => {
  const declared = PUBLISHED.map((pkg) => packageJson(pkg).dependencies?.[name]).find((version) => version !== undefined)
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> }
  return declared ?? lock.packages[`node_modules/${name}`]?.version
}
