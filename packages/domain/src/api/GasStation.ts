import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Invalid, RateLimited, Unavailable } from "../Errors.ts"
import { GasStationRequest, GasStationResponse } from "../GasStation.ts"

/**
 * The gas station of sign-first (`exact`) payments: an offer's `extra.gasStation`. No session: agents call it,
 * and what it builds is worth nothing until the payer signs it and the gateway settles it.
 */
export class GasStationApi extends HttpApiGroup.make("gasStation")
  .add(
    HttpApiEndpoint.post("sponsor", "/", {
      payload: GasStationRequest,
      success: GasStationResponse,
      error: [Invalid, RateLimited, Unavailable]
    }).annotateMerge(OpenApi.annotations({
      summary: "Sponsor the gas of a sign-first payment",
      description:
        "Wraps the TransactionKind of one payment (base64 BCS, built with onlyTransactionKind) into the whole transaction with the gateway's sponsor as gas owner: sender is the payer, the price is the reference gas price, the budget comes from the gateway's own simulation (at most SPONSOR_GAS_BUDGET_MAX), the expiration is the current epoch, and one sponsor coin is held for it until expiresAt. Sign exactly `transaction` with the payer's key and present it as the exact payment; the sponsor co-signs it only when the gateway settles it, after the seller answered, once. Accepted: one spend_account::pay call through a grant, or a plain transfer of the payer's own coins (SplitCoins, MergeCoins, TransferObjects and coinWithBalance's framework calls). Asking again for the same kind returns the same transaction while it is held. INVALID: anything else (a second command beside pay, any other Move call, a use of the gas coin, an object that is not the sender's, a withdrawal from another address), a payment that would abort, or one that costs more than the cap. RATE_LIMITED: the payer's requests per minute, or a gas budget (per day the grant owner's for a grant payment or the payer's for a transfer; everyone's payments per minute) is used; Retry-After says when to try again. UNAVAILABLE: sponsorship is off (sponsorship_off), the sponsor's balance is below SPONSOR_BALANCE_FLOOR_MIST (sponsor_balance_below_floor), or no gas coin is free; pay gas from the payer's own coins instead."
    }))
  )
  .prefix("/v1/gas-station")
{}
