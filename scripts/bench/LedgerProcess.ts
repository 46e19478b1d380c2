import { type ChildProcess, spawn } from "node:child_process"
import { Schema } from "effect"
import { freePort, scriptCommand } from "./ServerProcess.ts"

/** What `npm run ledger` prints once it listens: its origin and the environment a gateway needs to use it. */
const Announcement = Schema.Struct({
  listening: Schema.String,
  gatewayEnv: Schema.Struct({
    SUI_GRPC_URL: Schema.String,
    SUI_NETWORK: Schema.String,
    SPEND_ACCOUNT_PACKAGE: Schema.String,
    SPEND_ACCOUNT_REGISTRY: Schema.String
  })
})

export interface RunningLedger {
  /** Where its faucet (`/v2/gas`) and gRPC-web API (`/sui`) answer. */
  readonly origin: string
  readonly gatewayEnv: typeof Announcement.Type["gatewayEnv"]
  readonly process: ChildProcess
  readonly stop: () => Promise<void>
}

/**
 * Starts the standalone ledger as `npm run ledger` does (the root
 * package.json's script: its Node and flags) in its own process on a free
 * port, with `env` (its data dir, its checkpoint interval), and waits for its
 * announcement.
 */
export const startLedger = async (env: Record<string, string>): Promise<RunningLedger> => {
  const command = scriptCommand("ledger")
  const child = spawn(process.execPath, command.args, {
    env: { ...process.env, ...command.env, ...env, LEDGER_PORT: String(await freePort()), LEDGER_HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"]
  })
  const announcement = await new Promise<typeof Announcement.Type>((resolve, reject) => {
    let stdout = ""
    child.stdout.on("data", (chunk) => {
      stdout += String(chunk)
      const end = stdout.indexOf("\n")
      if (end >= 0) resolve(Schema.decodeUnknownPromise(Schema.fromJsonString(Announcement))(stdout.slice(0, end)))
    })
    child.once("exit", (code) => reject(new Error(`the ledger exited with ${code} before it listened`)))
  })
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once("exit", () => resolve())
      child.kill("SIGTERM")
    })
  return { origin: announcement.listening, gatewayEnv: announcement.gatewayEnv, process: child, stop }
}
