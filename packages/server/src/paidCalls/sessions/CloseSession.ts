import { fromBase64 } from "@mysten/sui/utils"
import { Clock, Effect, Option } from "effect"
import { atomic } from "@gateway/domain/Amount"
import { Conflict, Invalid, Unavailable } from "@gateway/domain/Errors"
import type { CloseSessionRequest, ClosedSession } from "@gateway/domain/PaymentSessionView"
import { ObjectId } from "@gateway/domain/SuiAddress"
import { knownSession } from "./KnownSession.ts"
import { PaymentSessionRepo } from "./PaymentSessionRepo.ts"
import { closeOne } from "./SettleSessions.ts"
import { voucherSignedBy } from "./VoucherSignature.ts"

/**
 * The delegate's final voucher (docs/paid-calls.md §7): the session takes no voucher after it, and is closed on
 * chain at once (`claim_and_close`, the sponsor paying gas): the seller is paid up to it, the rest goes back to
 * the pool and the grant's budget. It must cover what the answered calls used; nothing may be in flight.
 */
export const closeSessionByVoucher = Effect.fn("Sessions.close")(function*(sessionId: string, request: CloseSessionRequest) {
  const repo = yield* PaymentSessionRepo
  const cumulative = BigInt(request.cumulativeAmount)
  const signature = yield* Effect.try({ try: () => fromBase64(request.signature), catch: () => new Invalid({ message: "signature: not base64", reason: "voucher_signature_invalid" }) })
  const provenBy = (key: Uint8Array) => voucherSignedBy(sessionId, key, cumulative, signature, true)
  const record = yield* knownSession(sessionId, provenBy)
  if (!provenBy(record.voucherKey)) {
    return yield* new Invalid({ message: "The signature is not the session key's over this session's final voucher", reason: "voucher_signature_invalid" })
  }
  if (record.session.state === "closed") return yield* new Conflict({ message: "This session is closed already", reason: "session_closed" })
  if (record.session.state === "open") {
    if (cumulative < record.session.charged) {
      return yield* new Invalid({ message: `The final voucher must cover what the answered calls used (${record.session.charged})`, reason: "final_voucher_below_used" })
    }
    const began = yield* repo.beginClose({ sessionId: record.session.sessionId, cumulative, signature, nowMs: yield* Clock.currentTimeMillis })
    if (!began) return yield* new Conflict({ message: "A call of this session is in flight, or the voucher is above the deposit: retry once it is answered", reason: "session_busy" })
  }
  const closing = yield* knownSession(sessionId, provenBy)
  const closed = yield* closeOne(closing)
  if (Option.isNone(closed)) {
    return yield* new Unavailable({ message: "The session will be closed by the next round: the chain did not take the close now", reason: "close_pending" })
  }
  return {
    sessionId: ObjectId.make(record.session.sessionId),
    digest: closed.value.digest,
    claimed: atomic(closed.value.claimed),
    returned: atomic(closed.value.returned)
  } satisfies ClosedSession
})
