import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { described } from "../Doc.ts"
import { Conflict, Invalid, NotFound, Unavailable } from "../Errors.ts"
import { ClosedSession, CloseSessionRequest } from "../PaymentSessionView.ts"
import { ObjectId } from "../SuiAddress.ts"

/**
 * The agent's side of payment sessions (docs/paid-calls.md §7): closing one it no longer needs. No owner
 * session: the delegate's final voucher, signed with the session key, is the authorization.
 */
export class PaymentSessionsApi extends HttpApiGroup.make("paymentSessions")
  .add(
    HttpApiEndpoint.post("close", "/:id/close", {
      params: { id: described(ObjectId, "The payment session's object id on chain (0x…): the session the final voucher is for.") },
      payload: CloseSessionRequest,
      success: ClosedSession,
      error: [Invalid, Conflict, NotFound, Unavailable]
    }).annotateMerge(OpenApi.annotations({
      summary: "Close a payment session with its final voucher",
      description:
        "Ends the session now: the gateway submits spend_account::claim_and_close (the sponsor pays gas), the seller is paid up to cumulativeAmount, and the rest of the deposit goes back to the pool and the grant's budget. cumulativeAmount must be at least what the answered calls used, and no call of the session may be in flight (CONFLICT session_busy). The signature is the session key's Ed25519 signature over `sui-gw-voucher-final:v1` ‖ session id (32 bytes) ‖ cumulativeAmount (u64 little-endian). UNAVAILABLE: sponsorship is off or the chain did not take it now (the next round closes it); anyone may also submit claim_and_close with the final voucher themselves."
    }))
  )
  .prefix("/v1/sessions")
{}
