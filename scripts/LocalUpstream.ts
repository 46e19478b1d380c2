import { createServer } from "node:http"
import { Effect } from "effect"

/**
 * A seller's API on loopback for the scripts: answers every call with the
 * JSON that `body` gives for the call's number, and closes with the scope.
 */
export const localUpstream = (body: (call: number) => unknown = () => ({ ok: true })) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ url: string; close: () => void }>((resolve) => {
        let calls = 0
        const server = createServer((_, res) => {
          calls += 1
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body(calls)))
        })
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          const port = typeof address === "object" && address !== null ? address.port : 0
          resolve({ url: `http://127.0.0.1:${port}/x`, close: () => server.close() })
        })
      })
    ),
    (upstream) => Effect.sync(upstream.close)
  )
