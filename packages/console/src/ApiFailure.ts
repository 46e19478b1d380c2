/** The spec's error codes, and what a person can do about each. */
const advice: Record<string, string> = {
  UNAUTHENTICATED: "Sign in again with your wallet.",
  NOT_FOUND: "It may have been removed, or belongs to another wallet: refresh the page.",
  CONFLICT: "Its state changed meanwhile: refresh and try again.",
  NOT_FINAL: "Waiting for the chain to make the transaction final; this retries by itself.",
  INVALID: "Check the highlighted values and try again.",
  UNSUPPORTED_ASSET: "Create a spend account for this coin first, or pick a coin the gateway supports.",
  UNAVAILABLE: "The gateway or the chain is unreachable: try again in a moment.",
  TX_FAILED: "The transaction failed on chain: check your balances and the grant's state, then try again.",
  FOREIGN_DIGEST: "That transaction is not the one prepared for this grant: sign the prepared one.",
  UNVERIFIED: "The transaction did not match what was prepared: prepare the change again.",
  INTERNAL: "Something went wrong in the gateway: try again, and report it if it persists.",
  WALLET: "Your wallet did not complete the request: open it and try again.",
  NETWORK: "The gateway could not be reached: check your connection."
}

/** An API error body (`{ ok: false, code, message, reason }`), or a wallet or network failure in the same terms. */
export class ApiFailure extends Error {
  readonly code: string
  readonly reason: string | undefined

  constructor(code: string, message: string, reason: string | undefined = undefined) {
    super(message)
    this.code = code
    this.reason = reason
  }

  get advice(): string {
    return advice[this.code] ?? advice["INTERNAL"] ?? ""
  }
}

const reasonOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

/** Any failure as an ApiFailure: a wallet's refusal or crash reads as WALLET. */
export const asFailure = (cause: unknown, code = "WALLET"): ApiFailure =>
  cause instanceof ApiFailure ? cause : new ApiFailure(code, reasonOf(cause))
