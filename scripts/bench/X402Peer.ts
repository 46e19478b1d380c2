import { spawn } from "node:child_process"
import { decodePaymentRequiredHeader } from "@x402/core/http"
import { Schema } from "effect"
import { freePort } from "./ServerProcess.ts"

/** What the peer offers: one of our 402's `accepts`, its resource and extensions, on the path it was served at. */
export const PeerOffer = Schema.Struct({
  path: Schema.String,
  accepts: Schema.Struct({
    scheme: Schema.String,
    network: Schema.TemplateLiteral([Schema.String, ":", Schema.String]),
    amount: Schema.String,
    asset: Schema.String,
    payTo: Schema.String,
    maxTimeoutSeconds: Schema.Number,
    extra: Schema.Record(Schema.String, Schema.Unknown)
  }),
  description: Schema.String,
  mimeType: Schema.String,
  extensions: Schema.optional(Schema.Record(Schema.String, Schema.Unknown))
})
export type PeerOffer = typeof PeerOffer.Type

/** The offer of one of our 402s (its x402 `PAYMENT-REQUIRED` header), for the peer to make the same. */
export const peerOfferOf = async (resourceUrl: string): Promise<PeerOffer> => {
  const response = await fetch(resourceUrl)
  const header = response.headers.get("payment-required")
  if (response.status !== 402 || header === null) {
    throw new Error(`${resourceUrl} answered ${response.status} without a PAYMENT-REQUIRED header: ${await response.text()}`)
  }
  const required = decodePaymentRequiredHeader(header)
  const [accepts] = required.accepts
  if (accepts === undefined) throw new Error(`${resourceUrl}'s 402 accepts nothing`)
  return Schema.decodeUnknownSync(PeerOffer)({
    path: new URL(resourceUrl).pathname,
    accepts,
    description: required.resource.description ?? "",
    mimeType: required.resource.mimeType ?? "",
    extensions: required.extensions
  })
}

/**
 * The same-run peer for 402 minting: `@x402/express`'s payment middleware
 * serving `offer` in its own process (X402ExpressPeer.ts), as the gateway
 * serves its own, so both are loaded the same way on the same machine.
 */
export const startX402Peer = async (offer: PeerOffer) => {
  const port = await freePort()
  const child = spawn(process.execPath, [new URL("./X402ExpressPeer.ts", import.meta.url).pathname], {
    env: { ...process.env, PORT: String(port), X402_PEER_OFFER: JSON.stringify(offer) },
    stdio: ["ignore", "pipe", "inherit"]
  })
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the x402 peer exited with ${code}`)))
    child.stdout.once("data", () => resolve())
  })
  return {
    url: `http://127.0.0.1:${port}${offer.path}`,
    stop: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners("exit")
        child.once("exit", () => resolve())
        child.kill("SIGTERM")
      })
  }
}
