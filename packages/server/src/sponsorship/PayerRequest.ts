import { Effect } from "effect"
import { perMinute } from "@gateway/domain/limits/Quota"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { AppConfig } from "../Config.ts"
import { RateLimits } from "../limits/RateLimits.ts"

/**
 * Every gas-station request, refused ones included, first counts against its payer's requests per minute, in the
 * store so the limit holds across replicas. Counted apart from the payer's owner requests (`throttle`), at a rate
 * of its own (`SPONSOR_PAYMENT_REQUESTS_PER_PAYER_PER_MINUTE`): an owner's console calls rarely, an agent pays
 * for every call it makes.
 */
export const throttlePayer = Effect.fnUntraced(function*(payer: string) {
  const config = yield* AppConfig
  const limits = yield* RateLimits
  return yield* limits.take(`gas_station:${normalizeSuiAddress(payer)}`, perMinute(config.sponsorPaymentRequestsPerPayerPerMinute), {
    message: "Too many gas-station requests for this payer: try again after Retry-After seconds, or pay gas from the payer's own coins",
    reason: "gas_station_rate_limited"
  })
})
