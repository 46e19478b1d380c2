import { createServer, type IncomingHttpHeaders } from "node:http"
import { Context, Effect, Layer } from "effect"

/** A seller's API on loopback that records what reached it. */
export class Upstream extends Context.Service<Upstream, {
  url: string
  readonly calls: Array<{ readonly method: string; readonly url: string; readonly headers: IncomingHttpHeaders }>
  /** While true, every call answers 503, as a failing seller would. */
  failing: boolean
  /** Run once a call has arrived, before it is answered: the world changing while the seller works. */
  beforeAnswer: (() => Promise<void>) | undefined
}>()("@gateway/server/test/Upstream") {
  static readonly layer = Layer.effect(
    Upstream,
    Effect.acquireRelease(
      Effect.promise(() =>
        new Promise<{ server: ReturnType<typeof createServer>; state: Upstream["Service"] }>((resolve) => {
          const state: Upstream["Service"] = { url: "", calls: [], failing: false, beforeAnswer: undefined }
          const server = createServer((req, res) => {
            state.calls.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers })
            const call = state.calls.length
            void (state.beforeAnswer?.() ?? Promise.resolve()).then(() => {
              res.writeHead(state.failing ? 503 : 200, { "content-type": "application/json" })
              res.end(JSON.stringify({ answer: 42, call }))
            })
          })
          server.listen(0, "127.0.0.1", () => {
            const address = server.address()
            state.url = typeof address === "object" && address !== null ? `http://127.0.0.1:${address.port}/answer` : ""
            resolve({ server, state })
          })
        })
      ),
      ({ server }) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
    ).pipe(Effect.map(({ state }) => state))
  )
}
