import { fromBase64 } from "@mysten/sui/utils"
import { Option } from "effect"
import { decodeMppSessionCredential, decodeX402SessionPayment } from "@gateway/domain/payment/SessionCredential"
import { issuedRequest } from "../PaymentChallenge.ts"
import type { SessionCredential } from "./PresentVoucher.ts"

/**
 * A session voucher: x402 `PAYMENT-SIGNATURE` of scheme `sui-session`, or an MPP `session` credential echoing a
 * challenge this gateway issued (its id is our HMAC of the echoed fields). Undefined when there is none. The
 * challenge's expiry does not matter: vouchers are replay-safe by their growing amount, not by a nonce.
 */
export const readSessionCredential = (headers: Readonly<Record<string, string | undefined>>, mppSecret: string): SessionCredential | undefined => {
  const x402 = headers["payment-signature"]
  if (x402 !== undefined) {
    return Option.getOrUndefined(Option.map(decodeX402SessionPayment(x402), (p) => ({
      sessionId: p.payload.session,
      cumulative: BigInt(p.payload.cumulativeAmount),
      signature: fromBase64(p.payload.signature),
      serviceId: p.accepted.extra.serviceId
    })))
  }
  const authorization = headers["authorization"]
  if (authorization === undefined) return undefined
  const mpp = decodeMppSessionCredential(authorization)
  if (Option.isNone(mpp)) return undefined
  const request = issuedRequest(mpp.value, mppSecret)
  return request === undefined ? undefined : {
    sessionId: mpp.value.payload.channelId,
    cumulative: BigInt(mpp.value.payload.cumulativeAmount),
    signature: fromBase64(mpp.value.payload.signature),
    serviceId: request.methodDetails.serviceId
  }
}
