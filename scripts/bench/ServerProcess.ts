import { type ChildProcess, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { createServer } from "node:net"
import { Schema } from "effect"

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

/**
 * CPU time a process has used so far in ms, user and system, from /proc (Linux; the kernel counts in
 * ticks of 10 ms, so a figure is exact only over many of them).
 */
export const cpuMs = (pid: number) => {
  const fields = statFields(pid)
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/**
 * A process's /proc/<pid>/stat fields after its command name, counted from 0 at field 3 (the state): the name
 * (field 2) may hold spaces, so the fields start after its closing parenthesis.
 */
export const statFields = (pid: number): ReadonlyArray<string> => readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []

export interface RunningServer {
  readonly url: string
  readonly process: ChildProcess
  /** Milliseconds from spawn to the first 200 on /health. */
  readonly startupMs: number
  readonly stop: () => Promise<void>
}

/** An npm script's command line (package.json): leading `NAME=value` words are its environment, the words after `node` its arguments. */
export const scriptCommand = (name: string) => {
  const { scripts } = Schema.decodeUnknownSync(Schema.Struct({ scripts: Schema.Record(Schema.String, Schema.String) }))(
    JSON.parse(readFileSync("package.json", "utf8"))
  )
  const script = scripts[name]
  if (script === undefined) throw new Error(`package.json has no ${name} script`)
  const words = script.split(/\s+/).filter((word) => word !== "")
  const node = words.indexOf("node")
  if (node < 0) throw new Error(`the ${name} script does not run node: ${script}`)
  const env = Object.fromEntries(words.slice(0, node).map((word) => {
    const at = word.indexOf("=")
    return [word.slice(0, at), word.slice(at + 1)]
  }))
  return { env, args: words.slice(node + 1) }
}

/** `npm start`'s command line. */
export const startCommand = () => scriptCommand("start")

/**
 * Starts the real gateway (the bundle `npm start` runs) in its own Node
 * process, as `npm start` does, and waits for its first healthy answer;
 * `nodeArgs` go before the script (a profiler's flags, say). A variable set
 * to undefined in `env` is left out, even when this process has it.
 */
export const startGateway = async (env: Record<string, string | undefined>, nodeArgs: ReadonlyArray<string> = []): Promise<RunningServer> => {
  const port = await freePort()
  const started = performance.now()
  // The same environment (compile cache) and Node flags `npm start` gives the server (package.json).
  const command = startCommand()
  const child = spawn(process.execPath, [...nodeArgs, ...command.args], {
    env: { ...command.env, ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
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
