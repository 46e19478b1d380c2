import { Schema } from "effect"
import { CatalogEntry } from "@gateway/domain/CatalogEntry"

/** A live catalog entry of one fixed service, for the unit tests of what the gateway mints from an entry. */
export const liveEntry = (input: {
  readonly description: string
  readonly method: CatalogEntry["method"]
  readonly price: string
  readonly activeRevision: number
}) =>
  Schema.decodeUnknownSync(CatalogEntry)({
    id: "svc_0123456789abcdefghijklmnop",
    name: "A service",
    description: input.description,
    method: input.method,
    path: "/answer",
    resourceUrl: "https://gateway.example/v1/pay/svc_0123456789abcdefghijklmnop",
    price: input.price,
    asset: "0x2::sui::SUI",
    decimals: 9,
    payTo: `0x${"a".repeat(64)}`,
    network: "sui:localnet",
    dialects: ["mpp", "x402"],
    rail: "delegate",
    mimeType: "application/json",
    settlement: "after_answer",
    status: "live",
    managed: false,
    brand: null,
    activeRevision: input.activeRevision
  })
