import { decodePaymentRequiredHeader } from "@x402/core/http"
import { Credential, Method, z } from "mppx"
import { Option } from "effect"
import { sessionOfferIn } from "@gateway/client/SessionPayments"
import { mppVoucherPayload } from "@gateway/client/SessionVouchers"
import { FINAL_VOUCHER_DOMAIN, SESSION_GRACE_MS, VOUCHER_DOMAIN } from "@gateway/domain/chain/SessionVoucher"
import { SESSION_MIN_REMAINING_MS, SESSION_OPEN_METHOD, SESSION_SCHEME, type SessionOffer } from "@gateway/domain/payment/SessionOffer"
import { decodeSuiChargeRequest, type SuiChargeRequest } from "@gateway/domain/payment/SuiChargeRequest"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { makeSessionPayer, type SessionPayer, type SessionPayerOptions } from "../SessionPayer.ts"

/** MPP's `session` intent on `method="sui"`: the request is the charge's, the payload a voucher (mppx's shape for its own sessions). */
export const suiSession = Method.from({
  name: "sui",
  intent: "session",
  schema: {
    credential: {
      payload: z.object({
        action: z.literal("voucher"),
        channelId: z.string(),
        cumulativeAmount: z.string(),
        signature: z.string()
      })
    },
    request: z.record(z.string(), z.unknown())
  }
})

/** The challenge's terms as the x402 `sui-session` offer of the same 402, so one payer serves both dialects. */
const offerOf = (request: SuiChargeRequest, operator: SuiAddress): SessionOffer => {
  const d = request.methodDetails
  return {
    scheme: SESSION_SCHEME,
    network: d.network,
    amount: request.amount,
    asset: request.currency,
    payTo: request.recipient,
    maxTimeoutSeconds: 0,
    extra: {
      paymentFlow: "session",
      sessionOpen: SESSION_OPEN_METHOD,
      sessionOperator: operator,
      voucherDomain: VOUCHER_DOMAIN,
      finalVoucherDomain: FINAL_VOUCHER_DOMAIN,
      minRemainingSeconds: Number(SESSION_MIN_REMAINING_MS / 1000n),
      graceSeconds: Number(SESSION_GRACE_MS / 1000n),
      serviceId: d.serviceId,
      method: d.method,
      path: d.path,
      resourceUrl: d.resourceUrl,
      packageId: d.packageId,
      publishedAt: d.publishedAt
    }
  }
}

/**
 * The `sessionOperator` of the gateway's session offer. The MPP challenge's request is the charge's and does not
 * name it, so it is read once from the x402 offer of the same resource's 402 (an unpaid call), and only on the
 * origin of the manifest's `apiBaseUrl`: nothing is asked of any other site.
 */
const operatorReader = (apiBaseUrl: string) => {
  const gateway = URL.parse(apiBaseUrl)?.origin
  let known: Promise<SuiAddress> | undefined
  const read = async (details: SuiChargeRequest["methodDetails"]): Promise<SuiAddress> => {
    if (URL.parse(details.resourceUrl)?.origin !== gateway) throw new Error(`sui session: not paid: origin: only challenges from ${apiBaseUrl} are paid`)
    const response = await fetch(details.resourceUrl, { method: details.method })
    const header = response.headers.get("payment-required")
    const found = header === null ? undefined : sessionOfferIn(decodePaymentRequiredHeader(header).accepts)
    if (found === undefined) throw new Error("sui session: the gateway's 402 offers no sui-session to read its session operator from")
    return found.offer.extra.sessionOperator
  }
  return (details: SuiChargeRequest["methodDetails"]) => {
    known ??= read(details).catch((error: unknown) => {
      known = undefined
      throw error
    })
    return known
  }
}

/**
 * An mppx client method for `method="sui"`, `intent="session"`: pass it in `Mppx.create({ methods:
 * [suiSessionMethod(…)], polyfill: false })` and call through `paidFetch(mppx.fetch)`. It pays the challenge
 * with a voucher of the payee's session exactly as the x402 `sui-session` scheme does (one `SessionPayer`,
 * checked against the manifest and the request `paidFetch` is making; a session opened on chain when none can
 * pay the call) and answers a credential that echoes the whole challenge with the payload
 * `{ action: "voucher", channelId, cumulativeAmount, signature }`. The gateway's 402 carries a `charge` and a
 * `session` challenge: with this method alone (or first in `acceptPayment`), the session is the one paid.
 * `sessionOperator`, when given, spares the one read of the gateway's x402 offer (see `operatorReader`).
 */
export const suiSessionMethod = (
  options: (SessionPayerOptions | { readonly payer: SessionPayer }) & { readonly sessionOperator?: string }
) => {
  const payer = "payer" in options ? options.payer : makeSessionPayer(options)
  const given = options.sessionOperator === undefined ? undefined : SuiAddress.make(options.sessionOperator)
  const operatorOf = operatorReader(payer.manifest.apiBaseUrl)
  return Method.toClient(suiSession, {
    canHandleChallenge: ({ challenge }) => challenge.intent === "session" && Option.isSome(decodeSuiChargeRequest(challenge.request)),
    createCredential: async ({ challenge }) => {
      const request = decodeSuiChargeRequest(challenge.request)
      if (Option.isNone(request)) throw new Error("sui session: the challenge's request is not a Sui session request")
      const operator = given ?? await operatorOf(request.value.methodDetails)
      const voucher = await payer.voucherFor(offerOf(request.value, operator), "sui session")
      return Credential.serialize(Credential.from({ challenge, payload: mppVoucherPayload(voucher) }))
    }
  })
}
