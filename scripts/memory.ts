/**
 * `npm run memory`: where the gateway's memory goes. Starts the server as
 * `npm start` does (the root package.json "start" script's environment and Node
 * flags), on PGlite in a fresh temporary data directory, and also on
 * PostgreSQL when DATABASE_URL is set; waits for its first 200 on /health and
 * reads its memory then, after MEMORY_IDLE_SECONDS (20) of idling (V8's memory
 * reducer runs a full GC after about 15 s without work), and after a short
 * read load. Each figure is the median of MEMORY_RUNS (3) starts.
 * Resident memory is VmRSS from /proc; heap used, external and array buffers
 * are `process.memoryUsage()` read inside the server by a preloaded probe
 * (scripts/memory/Probe.ts) over IPC; PGlite's WebAssembly memory is its
 * mapping in /proc/<pid>/smaps (size, and how much of it is resident).
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Schema } from "effect"
import { load } from "./bench/Load.ts"
import { freePort, startCommand } from "./bench/ServerProcess.ts"

const RUNS = Number(process.env.MEMORY_RUNS ?? 3)
const IDLE_SECONDS = Number(process.env.MEMORY_IDLE_SECONDS ?? 20)
const LOAD_SECONDS = 2
const MiB = 1024 * 1024


const MemoryUsage = Schema.Struct({
  rss: Schema.Number,
  heapTotal: Schema.Number,
  heapUsed: Schema.Number,
  external: Schema.Number,
  arrayBuffers: Schema.Number
})

interface Reading {
  readonly rss: number
  readonly heapUsed: number
  readonly heapTotal: number
  readonly external: number
  readonly arrayBuffers: number
  readonly wasmSize: number
  readonly wasmResident: number
}

/** Sizes in kB of each mapping in /proc/<pid>/smaps, in address order. */
const mappings = (pid: number) =>
  readFileSync(`/proc/${pid}/smaps`, "utf8").split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/).map((block) => {
    const [range = "", perms = ""] = block.split(" ")
    const [start = "0", end = "0"] = range.split("-")
    const field = (name: string) => Number(new RegExp(`\\n${name}:\\s+(\\d+) kB`).exec(block)?.[1] ?? 0)
    return { start: BigInt(`0x${start}`), end: BigInt(`0x${end}`), perms, size: field("Size"), rss: field("Rss") }
  })

/**
 * V8 places each 32-bit WebAssembly memory inside a reservation of guard
 * regions: 2 GiB inaccessible before it (---p, merged with a neighbouring
 * reservation's when they touch), then the memory's `byteLength` (rw-p), then
 * inaccessible again. PGlite's is by far the largest; undici's HTTP parser and
 * a few small modules add a few MiB.
 */
const WASM_NEGATIVE_GUARD_KB = 2 * 1024 * 1024
const wasmMemory = (pid: number) => {
  const maps = mappings(pid)
  return maps.reduce((sum, map, i) => {
    const before = maps[i - 1]
    const after = maps[i + 1]
    const isWasm = map.perms === "rw-p" &&
      before !== undefined && before.perms === "---p" && before.end === map.start && before.size >= WASM_NEGATIVE_GUARD_KB &&
      after !== undefined && after.perms === "---p" && after.start === map.end
    return isWasm ? { size: sum.size + map.size * 1024, resident: sum.resident + map.rss * 1024 } : sum
  }, { size: 0, resident: 0 })
}

const vmRss = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))
  return line === undefined ? Number.NaN : Number(line.replace(/\D+/g, "")) * 1024
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** One start of the gateway: its readings at the first 200, idle, and after a short load. */
const measure = async (storeEnv: Record<string, string>) => {
  const command = startCommand()
  const port = await freePort()
  const { DATABASE_URL: _ignored, ...inherited } = process.env
  const child = spawn(process.execPath, ["--import", "./scripts/memory/Probe.ts", ...command.args], {
    env: { ...inherited, ...command.env, ...storeEnv, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "inherit", "ipc"]
  })
  const pid = child.pid
  if (pid === undefined) throw new Error("the gateway did not start")
  const url = `http://127.0.0.1:${port}`
  const read = async (): Promise<Reading> => {
    const usage = await new Promise<unknown>((resolve) => {
      child.once("message", resolve)
      child.send("read")
    })
    const { heapUsed, heapTotal, external, arrayBuffers } = Schema.decodeUnknownSync(MemoryUsage)(usage)
    const wasm = wasmMemory(pid)
    return { rss: vmRss(pid), heapUsed, heapTotal, external, arrayBuffers, wasmSize: wasm.size, wasmResident: wasm.resident }
  }
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`)
      if (await fetch(`${url}/health`).then((r) => r.status === 200, () => false)) break
      await sleep(10)
    }
    const started = await read()
    await sleep(IDLE_SECONDS * 1000)
    const idle = await read()
    for (const path of ["/health", "/v1/services", "/v1/services?q=weather", "/llms.txt", "/openapi.json"]) {
      await load({ url: `${url}${path}`, connections: 16, seconds: LOAD_SECONDS })
    }
    const loaded = await read()
    return { started, idle, loaded }
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once("exit", () => resolve())
      child.kill("SIGTERM")
    })
  }
}

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

const row = (label: string, readings: ReadonlyArray<Reading>, pglite: boolean) => {
  const mib = (pick: (r: Reading) => number) => (median(readings.map(pick)) / MiB).toFixed(0).padStart(6)
  const wasm = pglite ? `${mib((r) => r.wasmSize)} ${mib((r) => r.wasmResident)}` : ""
  return `${label.padEnd(26)}${mib((r) => r.rss)}${mib((r) => r.heapUsed)}${mib((r) => r.heapTotal)}${mib((r) => r.external)}${mib((r) => r.arrayBuffers)} ${wasm}`
}

const report = async (store: string, storeEnv: () => Record<string, string>, cleanup: () => void, pglite: boolean) => {
  const runs = []
  for (let i = 0; i < RUNS; i++) {
    process.stderr.write(`▸ ${store}: start ${i + 1} of ${RUNS}\n`)
    runs.push(await measure(storeEnv()).finally(cleanup))
  }
  console.log(`\n${store} (MiB, median of ${RUNS} starts)`)
  console.log(`${"".padEnd(26)}   rss  heap heapTot  ext   ab ${pglite ? " wasm  wasmRss" : ""}`)
  console.log(row("at the first 200", runs.map((r) => r.started), pglite))
  console.log(row(`idle (${IDLE_SECONDS} s later)`, runs.map((r) => r.idle), pglite))
  console.log(row(`after ${5 * LOAD_SECONDS} s of reads`, runs.map((r) => r.loaded), pglite))
}

let dataDir = ""
await report("PGlite, fresh data dir", () => {
  dataDir = mkdtempSync(join(tmpdir(), "gateway-memory-"))
  return { DATA_DIR: dataDir }
}, () => rmSync(dataDir, { recursive: true, force: true }), true)
const databaseUrl = process.env.DATABASE_URL
if (databaseUrl !== undefined) await report("PostgreSQL", () => ({ DATABASE_URL: databaseUrl }), () => undefined, false)
