import { AsyncLocalStorage } from "node:async_hooks"

/** The request a payment-aware fetch is making: the URL a 402 answered, and where the credential will be sent. */
export interface PaidRequest {
  readonly url: URL
  /** The HTTP method, upper case. */
  readonly method: string
}

/**
 * The request being paid for, per asynchronous call chain. x402 schemes and
 * mppx methods are handed only the challenge, so the request reaches the payer
 * this way; each call has its own, so concurrent calls never see each other's.
 */
const requests = new AsyncLocalStorage<PaidRequest>()

/**
 * Runs `run` as the payment of `request`: a `sui-delegate` offer or `sui`
 * challenge met inside is paid only if `request` is a call to the gateway's
 * service it names. `paidFetch` does this for fetch-style clients; a client
 * with another transport (e.g. axios) wraps each of its requests in it.
 * `undefined` (a URL that does not parse) makes every payment inside refuse.
 */
export const payingFor = <A>(request: PaidRequest | undefined, run: () => A): A =>
  request === undefined ? requests.exit(run) : requests.run(request, run)

/** Why a payer refuses outside `payingFor`: it cannot tell whose 402 it is paying. */
export const UNKNOWN_REQUEST = "request: the URL this 402 answered is unknown; pay through paidFetch (@gateway/sui-pay/PaidFetch) or payingFor"

/** The request the current call chain is paying for, if it runs inside `payingFor`. */
export const requestBeingPaid = (): PaidRequest | undefined => requests.getStore()
