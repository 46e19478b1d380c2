import { createServer } from "node:http"
import { Context, Effect, Layer } from "effect"

/**
 * A seller's API on loopback that records the URL of every call and, while
 * held, keeps each answer waiting until released, so a test can act while a
 * forward is in flight.
 */
export class HeldUpstream extends Context.Service<HeldUpstream, {
  readonly url: string
  readonly calls: ReadonlyArray<string>
  /** Holds the next answers; `arrived` resolves when a call is waiting, `release` lets every waiting and later call answer. */
  hold(): { readonly arrived: Promise<void>; readonly release: () => void }
}>()("@gateway/server/test/HeldUpstream") {
  static readonly layer = Layer.effect(
    HeldUpstream,
    Effect.acquireRelease(
      Effect.promise(() =>
        new Promise<{ server: ReturnType<typeof createServer>; url: string; calls: Array<string>; gate: { held: Promise<void>; arrive: () => void } }>(
          (resolve) => {
            const calls: Array<string> = []
            const gate = { held: Promise.resolve(), arrive: () => {} }
            const server = createServer((req, res) => {
              calls.push(req.url ?? "")
              gate.arrive()
              void gate.held.then(() => {
                res.writeHead(200, { "content-type": "application/json" })
                res.end(JSON.stringify({ answer: 42 }))
              })
            })
            server.listen(0, "127.0.0.1", () => {
              const address = server.address()
              const port = typeof address === "object" && address !== null ? address.port : 0
              resolve({ server, url: `http://127.0.0.1:${port}/answer`, calls, gate })
            })
          }
        )
      ),
      ({ server }) =>
        Effect.promise(() =>
          new Promise<void>((resolve) => {
            server.closeAllConnections()
            server.close(() => resolve())
          })
        )
    ).pipe(Effect.map(({ url, calls, gate }) =>
      HeldUpstream.of({
        url,
        calls,
        hold: () => {
          let release = () => {}
          const arrived = new Promise<void>((resolve) => {
            gate.arrive = resolve
          })
          gate.held = new Promise<void>((resolve) => {
            release = resolve
          })
          return { arrived, release }
        }
      })
    ))
  )
}
