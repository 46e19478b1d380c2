import { spawn } from "node:child_process"
import { freePort } from "./ServerProcess.ts"

/**
 * The same-run baseline: a minimal `node:http` server in its own process that
 * answers a fixed JSON body from memory. Whatever this machine does to the
 * baseline, it does to the gateway too, so the ratio is what to read.
 */
export const startBaseline = async (body: string) => {
  const port = await freePort()
  const source = `require("node:http").createServer((q, s) => { s.writeHead(200, { "content-type": "application/json" }); s.end(process.env.BODY) }).listen(${port}, "127.0.0.1", () => console.log("ready"))`
  const child = spawn(process.execPath, ["-e", source], { env: { ...process.env, BODY: body }, stdio: ["ignore", "pipe", "inherit"] })
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()))
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => {
      child.once("exit", () => resolve())
      child.kill("SIGTERM")
    })
  }
}
