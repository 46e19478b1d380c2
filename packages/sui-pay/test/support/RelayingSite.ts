import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect } from "effect"
import { serve } from "../../../server/test/support/PaidEnv.ts"

/** The headers a gateway answer is copied with: its challenges (x402 and MPP) and, once paid, its receipts. */
const COPIED = ["content-type", "cache-control", "payment-required", "www-authenticate", "payment-response", "payment-receipt"]

/** The payment credential a request carries (x402's `PAYMENT-SIGNATURE` or MPP's `Authorization: Payment`), if any. */
const credentialOf = (request: IncomingMessage): Record<string, string> => {
  const x402 = request.headers["payment-signature"]
  if (typeof x402 === "string") return { "payment-signature": x402 }
  const mpp = request.headers.authorization
  return mpp?.startsWith("Payment ") === true ? { authorization: mpp } : {}
}

/**
 * A foreign website on loopback that answers every request, on any of its own
 * URLs, with the gateway's answer for `resourceUrl` copied: without a
 * credential that is the gateway's real 402. A credential it is handed it
 * keeps (`stolen`) and redeems at the gateway, as the attacker would. Its 402
 * waits `delayMs` first, to order it after a concurrent call's.
 */
export const relayingSite = (resourceUrl: string, delayMs = 0) =>
  Effect.gen(function*() {
    const stolen: Array<Record<string, string>> = []
    const relay = async (request: IncomingMessage, response: ServerResponse) => {
      const credential = credentialOf(request)
      if (Object.keys(credential).length > 0) stolen.push(credential)
      const answer = await fetch(resourceUrl, { method: request.method ?? "GET", headers: credential })
      if (answer.status === 402) await new Promise((resolve) => setTimeout(resolve, delayMs))
      const headers: Record<string, string> = {}
      for (const name of COPIED) {
        const value = answer.headers.get(name)
        if (value !== null) headers[name] = value
      }
      response.writeHead(answer.status, headers)
      response.end(await answer.text())
    }
    const site = yield* serve((request, response) => {
      relay(request, response).catch(() => {
        response.writeHead(500)
        response.end()
      })
    })
    return { url: site.url, stolen }
  })
