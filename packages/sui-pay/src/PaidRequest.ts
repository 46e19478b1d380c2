import { AsyncLocalStorage } from "node:async_hooks"

/** The request a payment-aware fetch is making: the URL a 402 answered, and where the credential will be sent. */
export interface PaidRequest {
  readonly url: URL
  /** The HTTP method, upper case. */
  readonly method: string
}

/**
 * What a payer asks to be told once the request it paid for is answered: the answer (undefined when none came,
 * or when the transport is not `paidFetch`). It says whether the same request should be made again: a session
 * whose voucher was refused for the session's sake (spent, expiring, closed) pays the call from a new one.
 */
export type AfterAnswer = (response: Response | undefined) => Promise<"done" | "again">

interface PaidCall {
  readonly request: PaidRequest
  readonly afterAnswer: Array<AfterAnswer>
}

/**
 * The request being paid for, per asynchronous call chain. x402 schemes and
 * mppx methods are handed only the challenge, so the request reaches the payer
 * this way; each call has its own, so concurrent calls never see each other's.
 */
const calls = new AsyncLocalStorage<PaidCall>()

/** Runs the payers' `afterAnswer`s of a call, once each, with its answer; whether any asks for the request again. */
const answered = async (call: PaidCall, response: Response | undefined): Promise<boolean> => {
  const waiting = call.afterAnswer.splice(0)
  const verdicts = await Promise.all(waiting.map((after) => after(response?.clone()).catch(() => "done" as const)))
  return verdicts.includes("again")
}

/**
 * Runs `run` as the payment of `request`: a `sui-delegate` offer or `sui`
 * challenge met inside is paid only if `request` is a call to the gateway's
 * service it names. `paidFetch` does this for fetch-style clients; a client
 * with another transport (e.g. axios) wraps each of its requests in it.
 * `undefined` (a URL that does not parse) makes every payment inside refuse.
 * A session voucher presented inside is settled when `run` is done: with its
 * answer when `run` resolves to the `Response`, else unseen, and then the
 * session's next voucher is the same amount again (never more: the unseen one
 * may not have been charged), which the gateway refuses as used if it was.
 */
export const payingFor = <A>(request: PaidRequest | undefined, run: () => A): A => {
  if (request === undefined) return calls.exit(run)
  const call: PaidCall = { request, afterAnswer: [] }
  return calls.run(call, () => {
    const result = run()
    const done = (value: unknown) => void answered(call, value instanceof Response ? value : undefined)
    if (result instanceof Promise) result.then(done, () => done(undefined))
    else done(result)
    return result
  })
}

/**
 * `fetch` run as the payment of `request`, its answer handed to the payers that asked for it. Made again, up to
 * `attempts` times in all, when a payer asks (see `AfterAnswer`) and `replayable` (the body can be sent again).
 */
export const payingForAnswer = async (
  request: PaidRequest | undefined,
  fetch: () => Promise<Response>,
  options: { readonly replayable: boolean; readonly attempts: number }
): Promise<Response> => {
  if (request === undefined) return calls.exit(fetch)
  for (let attempt = 1;; attempt++) {
    const call: PaidCall = { request, afterAnswer: [] }
    const response = await calls.run(call, fetch).catch(async (error: unknown) => {
      await answered(call, undefined)
      throw error
    })
    const again = await answered(call, response)
    if (!again || !options.replayable || attempt >= options.attempts) return response
  }
}

/** Why a payer refuses outside `payingFor`: it cannot tell whose 402 it is paying. */
export const UNKNOWN_REQUEST = "request: the URL this 402 answered is unknown; pay through paidFetch (@gateway/sui-pay/PaidFetch) or payingFor"

/** The request the current call chain is paying for, if it runs inside `payingFor`. */
export const requestBeingPaid = (): PaidRequest | undefined => calls.getStore()?.request

/** Asks to be told the answer of the request being paid for (see `AfterAnswer`); false outside `payingFor`. */
export const afterAnswer = (after: AfterAnswer): boolean => {
  const call = calls.getStore()
  if (call === undefined) return false
  call.afterAnswer.push(after)
  return true
}

/**
 * Tells the payers of the request being paid for that their answers will not be seen: a client that pays the
 * same request's 402 again (mppx retries within one fetch) has moved on from what it presented before.
 */
export const answerUnseen = async (): Promise<void> => {
  const call = calls.getStore()
  if (call !== undefined) await answered(call, undefined)
}
