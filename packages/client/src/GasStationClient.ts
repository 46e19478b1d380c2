import { Effect, Schema } from "effect"
import { GasStationResponse } from "@gateway/domain/GasStation"
import { PaymentRefused } from "./PaymentRefused.ts"

const decodeResponse = Schema.decodeUnknownEffect(Schema.fromJsonString(GasStationResponse))

const refusal = (reason: string) => new PaymentRefused({ reason: `gas station: ${reason}` })

/**
 * The gas station an offer names, as a URL the agent may call: on the gateway's own origin only. The offer is
 * vouched for as the gateway's, but its `extra` is still text the agent did not write; the agent sends its
 * address and payment to no other host.
 */
export const gasStationUrl = (gasStation: string, resourceUrl: string, gatewayOrigin: string) => {
  const url = URL.parse(gasStation, resourceUrl)
  return url !== null && url.origin === gatewayOrigin
    ? Effect.succeed(url)
    : Effect.fail(refusal(`${gasStation} is not on the gateway's origin ${gatewayOrigin}`))
}

/** The reason a refusal carries (`{ reason, message }` in the gateway's error body), or its status. */
const reasonOf = (status: number, text: string) => {
  try {
    const body: unknown = JSON.parse(text)
    if (typeof body === "object" && body !== null) {
      const { reason, message } = body as { reason?: unknown; message?: unknown }
      const said = [reason, message].filter((part): part is string => typeof part === "string" && part !== "")
      if (said.length > 0) return `${status} ${said.join(": ")}`
    }
  } catch {
    // Not JSON: the status alone says it.
  }
  return String(status)
}

/**
 * Asks the gas station to wrap the payment's `TransactionKind` (base64) into a whole transaction its sponsor pays
 * the gas of. The answer is untrusted until `checkSponsoredPayment` has compared it with what was sent.
 */
export const askGasStation = (input: { readonly url: URL; readonly transactionKind: string; readonly sender: string }) =>
  Effect.gen(function*() {
    const response = yield* Effect.tryPromise({
      try: () =>
        fetch(input.url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ transactionKind: input.transactionKind, sender: input.sender })
        }),
      catch: (error) => refusal(`${input.url.href} cannot be reached: ${String(error)}`)
    })
    const text = yield* Effect.tryPromise({ try: () => response.text(), catch: (error) => refusal(`the answer was cut off: ${String(error)}`) })
    if (!response.ok) return yield* Effect.fail(refusal(`refused to sponsor the payment: ${reasonOf(response.status, text)}`))
    return yield* decodeResponse(text).pipe(Effect.mapError((error) => refusal(`the answer is not a sponsored transaction: ${error.message}`)))
  })
