import type { Conflict, Invalid, NotFound, Unavailable, VerificationError } from "@gateway/domain/Errors"
import type { Limited } from "../limits/Limited.ts"
import type { ChallengeHeaders } from "./PaymentChallenge.ts"

export interface PaidCallRequest {
  readonly serviceId: string
  readonly method: string
  readonly search: string
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: Uint8Array
  /** The caller's network address, as the seller's `X-Forwarded-For`. */
  readonly clientAddress: string | undefined
}

export type PaidCallResult =
  /** A 402: its JSON body as text, and its challenge headers. */
  | { readonly _tag: "PaymentRequired"; readonly body: string; readonly headers: ChallengeHeaders }
  | { readonly _tag: "Forwarded"; readonly status: number; readonly body: Uint8Array; readonly headers: Record<string, string> }
  /** The service is not called with this method: nothing is challenged, accepted or forwarded. */
  | { readonly _tag: "MethodNotAllowed"; readonly allow: ReadonlyArray<string> }

/** Why a paid call was not answered. */
export type PaidCallRefusal = NotFound | Conflict | Invalid | Unavailable | VerificationError | Limited
