import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"

/** A free loopback port, so runs never collide. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

/** Resident memory of a process in MiB, from /proc (Linux). */
export const rssMiB = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))
  return line === undefined ? Number.NaN : Number(line.replace(/\D+/g, "")) / 1024
}

export interface RunningServer {
  readonly url: string
  readonly process: ChildProcess
  /** Milliseconds from spawn to the first 200 on /health. */
  readonly startupMs: number
  readonly stop: () => Promise<void>
}

/**
 * Starts the real gateway (`packages/server/src/main.ts`) in its own Node
 * process, as `npm start` does, and waits for its first healthy answer.
 */
export const startGateway = async (env: Record<string, string>): Promise<RunningServer> => {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(process.execPath, ["packages/server/src/main.ts"], {
    // The same compile cache `npm start` gives the server (package.json).
    env: { NODE_COMPILE_CACHE: "node_modules/.cache/node-compile", ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "inherit"]
  })
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`)
    const ok = await fetch(`${url}/health`).then((r) => r.status === 200, () => false)
    if (ok) break
    await new Promise((r) => setTimeout(r, 10))
  }
  const startupMs = performance.now() - started
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve())
      child.kill("SIGTERM")
    })
  return { url, process: child, startupMs, stop }
}
