import { type ChildProcess, spawn } from "node:child_process"
import { join } from "node:path"
import { createServer } from "node:net"
import { Effect, Option, Schema } from "effect"

/** What `npm run ledger` prints once it listens. */
export const Announcement = Schema.Struct({
  listening: Schema.String,
  grpc: Schema.String,
  faucet: Schema.String,
  journal: Schema.String,
  gatewayEnv: Schema.Struct({
    SUI_GRPC_URL: Schema.String,
    SUI_NETWORK: Schema.String,
    SPEND_ACCOUNT_PACKAGE: Schema.String,
    SPEND_ACCOUNT_REGISTRY: Schema.String
  })
})

/** A node that started and listens, or one that exited before it did. */
export type Launched =
  | { readonly _tag: "Listening"; readonly announcement: typeof Announcement.Type; readonly child: ChildProcess }
  | { readonly _tag: "Exited"; readonly code: number | null; readonly stderr: string }

const MAIN = join(import.meta.dirname, "../src/main.ts")

/** A loopback port nobody listens on now. */
export const freePort = Effect.promise(() =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })
)

/** Runs `npm run ledger`'s command (this Node, the source condition, main.ts) with `env`, until it announces itself or exits. */
export const launch = (env: Record<string, string>) =>
  Effect.promise(() =>
    new Promise<Launched>((resolve, reject) => {
      const child = spawn(process.execPath, ["--conditions=@gateway/source", MAIN], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      child.stderr.on("data", (chunk) => (stderr += String(chunk)))
      child.stdout.on("data", (chunk) => {
        stdout += String(chunk)
        const end = stdout.indexOf("\n")
        if (end < 0) return
        const announcement = Schema.decodeUnknownOption(Schema.fromJsonString(Announcement))(stdout.slice(0, end))
        if (Option.isSome(announcement)) resolve({ _tag: "Listening", announcement: announcement.value, child })
        else reject(new Error(`the ledger's first line is not its announcement: ${stdout.slice(0, end)}`))
      })
      child.once("exit", (code) => resolve({ _tag: "Exited", code, stderr }))
    })
  )

/** Stops a node as an operator does (SIGTERM), once it has exited. */
export const stop = (child: ChildProcess) =>
  Effect.promise(() =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once("exit", () => resolve())
      child.kill("SIGTERM")
    })
  )

/** A node that must start: its announcement, stopped with the scope. */
export const listening = (env: Record<string, string>) =>
  Effect.acquireRelease(launch(env), (launched) => (launched._tag === "Listening" ? stop(launched.child) : Effect.void)).pipe(
    Effect.flatMap((launched) => (launched._tag === "Listening" ? Effect.succeed(launched) : Effect.die(`the ledger exited with ${launched.code}: ${launched.stderr}`)))
  )
