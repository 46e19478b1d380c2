import { Credential, Method, z } from "mppx"
import { Option, Schema } from "effect"
import { EXACT_SCHEME, type ExactOffer } from "@gateway/domain/payment/ExactOffer"
import { SuiChargeRequest, SuiMethodDetails } from "@gateway/domain/payment/SuiChargeRequest"
import { makeSignFirstPayer, type SignFirstPayer } from "../SignFirstPayer.ts"
import type { SuiPayerOptions } from "../SuiPayer.ts"

/** MPP's `sui` charge paid sign-first: the same challenge, the credential's payload the signed transaction. */
export const suiSignFirstCharge = Method.from({
  name: "sui",
  intent: "charge",
  schema: {
    credential: {
      payload: z.object({
        signature: z.string(),
        transaction: z.string()
      })
    },
    request: z.record(z.string(), z.unknown())
  }
})

/**
 * The charge request as the upfront method reads it, and optionally the gas station's URL in `methodDetails`: a
 * gateway that names one there sponsors sign-first payments made through MPP as it does through x402.
 */
const SignFirstChargeRequest = Schema.Struct({
  ...SuiChargeRequest.fields,
  methodDetails: Schema.Struct({ ...SuiMethodDetails.fields, gasStation: Schema.optionalKey(Schema.String) })
})
const decodeRequest = Schema.decodeUnknownOption(SignFirstChargeRequest, { onExcessProperty: "error" })

/** The challenge's terms as an `exact` offer, so one payer (and its one payment per nonce) serves both dialects. */
const offerOf = (request: typeof SignFirstChargeRequest.Type, expires: string, gasStation: string | undefined): ExactOffer => {
  const { gasStation: named, network, rail: _rail, ...terms } = request.methodDetails
  const station = named ?? gasStation
  return {
    scheme: EXACT_SCHEME,
    network,
    amount: request.amount,
    asset: request.currency,
    payTo: request.recipient,
    maxTimeoutSeconds: Math.max(0, Math.floor((Date.parse(expires) - Date.now()) / 1000)),
    extra: { paymentFlow: "authorization", ...terms, expiresAt: expires, ...(station === undefined ? {} : { gasStation: station }) }
  }
}

/**
 * An mppx client method for `method="sui"`, `intent="charge"` that pays
 * sign-first: pass it in `Mppx.create({ methods: [suiSignFirstMethod(…)],
 * polyfill: false })` and call through `paidFetch(mppx.fetch)`. It signs the
 * challenge's payment exactly as the x402 `exact` scheme does (one payer,
 * checked against the manifest and the request `paidFetch` is making, one
 * signed payment per nonce, executed by the gateway only once the seller has
 * answered) and answers a credential that echoes the whole challenge with the
 * payload `{ signature, transaction }`.
 *
 * The gas is the gas station's when the challenge's `methodDetails.gasStation`
 * names one, else `gasStation` here (the gateway's station URL, on its origin
 * only), else the agent's own. Use either this or `suiMethod` (upfront) for a
 * client: both answer the same challenge.
 */
export const suiSignFirstMethod = (
  options: (SuiPayerOptions | { readonly payer: SignFirstPayer }) & { readonly gasStation?: string }
) => {
  const payer = "payer" in options ? options.payer : makeSignFirstPayer(options)
  return Method.toClient(suiSignFirstCharge, {
    canHandleChallenge: ({ challenge }) => Option.isSome(decodeRequest(challenge.request)),
    createCredential: async ({ challenge }) => {
      const request = decodeRequest(challenge.request)
      if (Option.isNone(request)) throw new Error("sui: the challenge's request is not a Sui charge")
      if (challenge.expires === undefined) throw new Error("sui: the challenge names no expiry")
      const payload = await payer.sign(offerOf(request.value, challenge.expires, options.gasStation))
      return Credential.serialize(Credential.from({ challenge, payload }))
    }
  })
}
