/**
 * A repro of what the soak found at SIGTERM: a request on a connection the draining gateway had accepted
 * but not yet read is reset (ECONNRESET) instead of being answered or refused. One gateway (the bundle,
 * local mode, PGlite in memory), 16 clients each sending GET /health/live on a fresh connection in a loop,
 * SIGTERM after a second; prints how every request ended. The drain is Node's `server.close()` (effect's
 * NodeHttpServer), which closes connections with no request under way as idle, a freshly accepted one
 * included; a plain `node:http` server closed the same way resets them too. Run:
 *   npm run -s build -w @gateway/server && npm exec -- node --conditions=@gateway/source scripts/soak/DrainRace.ts
 */
import { get } from "node:http"
import { startGateway } from "../bench/ServerProcess.ts"

const CLIENTS = 16

/** One request on its own connection: its status, or the error code it ended with. */
const once = (url: string) =>
  new Promise<string>((resolve) => {
    const request = get(url, { agent: false }, (response) => {
      response.resume()
      response.on("end", () => resolve(String(response.statusCode)))
      response.on("error", (error) => resolve(`cut: ${error.message}`))
    })
    request.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })

const attempt = async () => {
  const gateway = await startGateway({ DATA_DIR: "memory://", LOG_LEVEL: "warn" })
  const outcomes = new Map<string, number>()
  let stopped = false
  const client = async () => {
    while (!stopped) {
      const outcome = await once(`${gateway.url}/health/live`)
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
      // Once the port refuses, the drain has stopped accepting: nothing more to learn.
      if (outcome === "ECONNREFUSED") stopped = true
    }
  }
  const clients = Array.from({ length: CLIENTS }, client)
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  const exit = new Promise<number | null>((resolve) => gateway.process.once("exit", (code) => resolve(code)))
  gateway.process.kill("SIGTERM")
  await Promise.all(clients)
  return { code: await exit, outcomes }
}

for (let i = 1; i <= 5; i++) {
  const { code, outcomes } = await attempt()
  const reset = outcomes.get("ECONNRESET") ?? 0
  console.log(`attempt ${i}: exit ${code}; ${[...outcomes].map(([o, n]) => `${o} ×${n}`).join(", ")}`)
  if (reset > 0) {
    console.log(`reproduced: ${reset} requests reset by the draining gateway, neither answered nor refused`)
    process.exit(1)
  }
}
console.log("not reproduced in 5 attempts")
