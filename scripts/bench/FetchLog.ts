import { Effect } from "effect"

/** One request this process made through `fetch`: from the call until its answer's headers came (performance.now(), ms). */
export interface Fetched {
  readonly url: string
  /** Whether it carried a payment (`PAYMENT-SIGNATURE`): the agent presenting its credential. */
  readonly paid: boolean
  readonly startMs: number
  readonly endMs: number
  /** What the metered process's CPU time grew by meanwhile, ms (from /proc: 10 ms ticks, so exact only summed over many). */
  readonly cpuMs: number
}

const urlOf = (input: string | URL | Request) => (input instanceof Request ? input.url : String(input))

const carriesPayment = (input: string | URL | Request, init: RequestInit | undefined) =>
  (input instanceof Request && input.headers.has("payment-signature")) || new Headers(init?.headers).has("payment-signature")

/**
 * Logs every `fetch` this process makes while the scope lasts, to cut a paid call at its requests: the agent SDK
 * and the Sui client (gRPC-web) call the global `fetch` at each request, so both are seen, unchanged; `cpuMs` (a
 * process's CPU time so far) is read before and after each. `take()` answers what was logged since the last take;
 * the global `fetch` is restored when the scope closes.
 */
export const fetchLog = (cpuMs: () => number) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const original = globalThis.fetch
      let logged: Array<Fetched> = []
      globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
        const [startMs, startCpuMs] = [performance.now(), cpuMs()]
        try {
          return await original(input, init)
        } finally {
          logged.push({ url: urlOf(input), paid: carriesPayment(input, init), startMs, endMs: performance.now(), cpuMs: cpuMs() - startCpuMs })
        }
      }
      const take = () => {
        const taken = logged
        logged = []
        return taken
      }
      return { original, take }
    }),
    ({ original }) => Effect.sync(() => void (globalThis.fetch = original))
  )
