/**
 * The bench's peer for 402 minting, run in its own process by X402Peer.ts:
 * an express app behind `@x402/express`'s payment middleware, offering on the
 * same path what our gateway offers (scheme, network, amount, asset, payTo,
 * terms and bazaar description, read from one of our 402s). Like ours, each
 * challenge gets a fresh nonce and expiry. Its facilitator is an in-process
 * object that answers `supported` for the scheme and network and never
 * touches the network; the bench never pays, so verify and settle refuse.
 */
import { randomUUID } from "node:crypto"
import { createRequire } from "node:module"
import { type FacilitatorClient, type RoutesConfig, x402ResourceServer } from "@x402/core/server"
import type { Network, PaymentRequirements, SchemeNetworkServer } from "@x402/core/types"
import { paymentMiddleware } from "@x402/express"
import { Schema } from "effect"
import { PeerOffer } from "./X402Peer.ts"

/** The part of express this peer uses; express ships no types and @types/express is not installed. */
interface ExpressApp {
  use(handler: ReturnType<typeof paymentMiddleware>): void
  get(path: string, handler: (request: unknown, response: { json(body: unknown): void }) => void): void
  listen(port: number, host: string, ready: () => void): void
}

const offer = Schema.decodeUnknownSync(Schema.fromJsonString(PeerOffer))(process.env.X402_PEER_OFFER)
const network: Network = offer.accepts.network
/** The terms every challenge repeats; the nonce and expiry are minted per challenge. */
const terms = Object.fromEntries(Object.entries(offer.accepts.extra).filter(([key]) => key !== "nonce" && key !== "expiresAt"))
const transferMethod = typeof terms.assetTransferMethod === "string" ? terms.assetTransferMethod : "default"

const scheme: SchemeNetworkServer = {
  scheme: offer.accepts.scheme,
  defaultAssetTransferMethod: transferMethod,
  paymentFlows: { [transferMethod]: { supported: ["upfront"], default: "upfront" } },
  parsePrice: (price) =>
    typeof price === "object" && "amount" in price
      ? Promise.resolve({ amount: price.amount, asset: price.asset })
      : Promise.reject(new Error("the peer prices in atomic units of its asset")),
  enhancePaymentRequirements: (requirements: PaymentRequirements) =>
    Promise.resolve({
      ...requirements,
      extra: {
        ...requirements.extra,
        nonce: randomUUID(),
        expiresAt: new Date(Date.now() + requirements.maxTimeoutSeconds * 1000).toISOString()
      }
    })
}

const facilitator: FacilitatorClient = {
  getSupported: () => Promise.resolve({ kinds: [{ x402Version: 2, scheme: scheme.scheme, network }], extensions: [], signers: {} }),
  verify: () => Promise.resolve({ isValid: false, invalidReason: "the bench peer verifies no payment" }),
  settle: () => Promise.resolve({ success: false, errorReason: "the bench peer settles no payment", transaction: "", network })
}

const routes: RoutesConfig = {
  [`GET ${offer.path}`]: {
    accepts: {
      scheme: scheme.scheme,
      network,
      payTo: offer.accepts.payTo,
      price: { amount: offer.accepts.amount, asset: offer.accepts.asset },
      maxTimeoutSeconds: offer.accepts.maxTimeoutSeconds,
      extra: terms
    },
    description: offer.description,
    mimeType: offer.mimeType,
    ...(offer.extensions === undefined ? {} : { extensions: offer.extensions })
  }
}

const express = createRequire(import.meta.url)("express") as () => ExpressApp
const app = express()
app.use(paymentMiddleware(routes, new x402ResourceServer(facilitator).register(network, scheme)))
app.get(offer.path, (_request, response) => response.json({ paid: true }))
app.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("ready"))
