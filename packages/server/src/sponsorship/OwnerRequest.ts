import { Effect } from "effect"
import { fromBase64 } from "@mysten/sui/utils"
import { perMinute } from "@gateway/domain/limits/Quota"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import { RateLimits } from "../limits/RateLimits.ts"
import { invalid } from "./SponsorErrors.ts"

/** Every request, to build or to execute, first counts against its owner's requests per minute. */
export const throttle = Effect.fnUntraced(function*(owner: SuiAddress) {
  const config = yield* AppConfig
  const limits = yield* RateLimits
  return yield* limits.take(`sponsor_requests:${owner}`, perMinute(config.sponsorPerOwnerPerMinute), {
    message: "Too many sponsorship requests: try again after Retry-After seconds, or pay gas from your own wallet",
    reason: "sponsorship_rate_limited"
  })
})

/** A request's base64 field as bytes; INVALID, naming the field, when it is not base64. */
export const decodeField = (field: string, text: string) => Effect.try({ try: () => fromBase64(text), catch: () => invalid(`${field}: not base64`) })
