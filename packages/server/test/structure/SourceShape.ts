import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { parseSync } from "oxc-parser"

/** A source file as the shape checks read it: its path, its text and what oxc parses of it. */
export interface Source {
  readonly path: string
  readonly text: string
  readonly program: ReturnType<typeof parseSync>["program"]
  readonly imports: ReadonlyArray<string>
}

/** Every `.ts` file under `root` (tests beside the sources left out), parsed. */
export const sourcesUnder = (root: string): ReadonlyArray<Source> =>
  readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.endsWith(".d.ts"))
    .sort()
    .map((file) => {
      const path = join(root, file)
      const text = readFileSync(path, "utf8")
      const parsed = parseSync(path, text)
      return { path, text, program: parsed.program, imports: parsed.module.staticImports.map((i) => i.moduleRequest.value) }
    })

interface Node {
  readonly type: string
  readonly start: number
  readonly end: number
}

const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string" &&
  typeof (value as { start?: unknown }).start === "number"

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"])

const lineOf = (text: string, offset: number) => {
  let line = 1
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++
  return line
}

/** A function that spans more lines than allowed: where it starts and how long it is. */
export interface LongFunction {
  readonly at: string
  readonly lines: number
}

/** Every function (declaration, expression or arrow, nested ones included) longer than `maxLines`, counted from its first line to its last. */
export const longFunctions = (sources: ReadonlyArray<Source>, maxLines: number, base: string): ReadonlyArray<LongFunction> => {
  const found: Array<LongFunction> = []
  for (const source of sources) {
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(visit)
      if (!isNode(value)) return
      if (FUNCTIONS.has(value.type)) {
        const first = lineOf(source.text, value.start)
        const lines = lineOf(source.text, value.end) - first + 1
        if (lines > maxLines) found.push({ at: `${relative(base, source.path)}:${first}`, lines })
      }
      for (const [key, child] of Object.entries(value)) if (key !== "parent") visit(child)
    }
    visit(source.program)
  }
  return found
}

/** Import cycles among the files (relative imports only), each as the files around it. */
export const importCycles = (sources: ReadonlyArray<Source>, base: string): ReadonlyArray<ReadonlyArray<string>> => {
  const edges = new Map(
    sources.map((s) => [s.path, s.imports.filter((i) => i.startsWith(".")).map((i) => resolve(dirname(s.path), i))] as const)
  )
  const cycles: Array<ReadonlyArray<string>> = []
  const state = new Map<string, "open" | "done">()
  const stack: Array<string> = []
  const walk = (file: string): void => {
    state.set(file, "open")
    stack.push(file)
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === "open") cycles.push(stack.slice(stack.indexOf(next)).map((f) => relative(base, f)))
      else if (!state.has(next) && edges.has(next)) walk(next)
    }
    stack.pop()
    state.set(file, "done")
  }
  for (const file of edges.keys()) if (!state.has(file)) walk(file)
  return cycles
}
