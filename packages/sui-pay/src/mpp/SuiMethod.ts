import { Credential, Method, z } from "mppx"
import { Option } from "effect"
import { decodeSuiChargeRequest, offerOfChargeRequest } from "@gateway/domain/payment/SuiChargeRequest"
import { makeSuiPayer, type SuiPayer, type SuiPayerOptions } from "../SuiPayer.ts"

/** MPP's `sui` charge: the request as @gateway/domain/payment/SuiChargeRequest lays it out, the payload our credential's. */
export const suiCharge = Method.from({
  name: "sui",
  intent: "charge",
  schema: {
    credential: {
      payload: z.object({
        digest: z.string(),
        proof: z.string(),
        binding: z.literal("challenge")
      })
    },
    request: z.record(z.string(), z.unknown())
  }
})

/**
 * An mppx client method for `method="sui"`, `intent="charge"`: pass it in
 * `Mppx.create({ methods: [suiMethod(…)], polyfill: false })` and call through
 * `paidFetch(mppx.fetch)`. It pays the challenge's `methodDetails` terms
 * exactly as the x402 scheme does (one payer, checked against the manifest
 * and the request `paidFetch` is making, once per nonce) and answers a
 * credential that echoes the whole challenge. mppx hands a method only the
 * challenge: outside `paidFetch` (or `payingFor`) it pays nothing.
 */
export const suiMethod = (options: SuiPayerOptions | { readonly payer: SuiPayer }) => {
  const payer = "payer" in options ? options.payer : makeSuiPayer(options)
  return Method.toClient(suiCharge, {
    canHandleChallenge: ({ challenge }) => Option.isSome(decodeSuiChargeRequest(challenge.request)),
    createCredential: async ({ challenge }) => {
      const request = decodeSuiChargeRequest(challenge.request)
      if (Option.isNone(request)) throw new Error("sui: the challenge's request is not a Sui charge")
      if (challenge.expires === undefined) throw new Error("sui: the challenge names no expiry")
      const seconds = Math.max(0, Math.floor((Date.parse(challenge.expires) - Date.now()) / 1000))
      const payload = await payer.pay(offerOfChargeRequest(request.value, challenge.expires, seconds))
      return Credential.serialize(Credential.from({ challenge, payload }))
    }
  })
}
