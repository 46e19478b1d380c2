import { type PaidRequest, payingForAnswer } from "./PaidRequest.ts"

type FetchInput = Parameters<typeof globalThis.fetch>[0]

/** A fetch that pays 402s: `wrapFetchWithPayment(fetch, x402Client)` from `@x402/fetch`, or `mppx.fetch`. */
export type PayingFetch<Init extends RequestInit> = (input: FetchInput, init?: Init) => Promise<Response>

/** The URL and method a fetch call is made with, read without touching its body. */
const requestOf = (input: FetchInput, init: RequestInit | undefined): PaidRequest | undefined => {
  const isRequest = typeof input !== "string" && !(input instanceof URL)
  const url = URL.parse(typeof input === "string" ? input : input instanceof URL ? input.href : input.url)
  if (url === null) return undefined
  return { url, method: (init?.method ?? (isRequest ? input.method : "GET")).toUpperCase() }
}

/** Whether the call can be made again as is: a `Request` or a stream as body is read by the first attempt. */
const replayable = (input: FetchInput, init: RequestInit | undefined) => {
  const body = init?.body
  const isRequest = typeof input !== "string" && !(input instanceof URL)
  return !(isRequest && input.body !== null) && !(body instanceof ReadableStream)
}

/** A call whose session was refused for the session's sake is paid from a new one: the first try and one more. */
const ATTEMPTS = 2

/**
 * THE way to pay with `@gateway/sui-pay` from a fetch-style client: wraps
 * `wrapFetchWithPayment(fetch, x402Client)` or `mppx.fetch` so that the
 * `exact`, `sui-delegate` and `sui-session` schemes and the `sui` methods know
 * the request each 402 answered. They pay only when that request is a call to
 * the service the challenge names, on the origin of the manifest's
 * `apiBaseUrl`; a 402 a foreign website relays (copied from the gateway) is
 * refused before anything is paid, and the call fails with the reason. A
 * session payer also learns from it how its voucher was answered.
 */
export const paidFetch = <Init extends RequestInit>(fetchPaying: PayingFetch<Init>): PayingFetch<Init> => (input, init) =>
  payingForAnswer(requestOf(input, init), () => fetchPaying(input, init), { replayable: replayable(input, init), attempts: ATTEMPTS })
