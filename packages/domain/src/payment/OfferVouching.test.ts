import { describe, expect, it } from "@effect/vitest"
import type { ConnectionManifest } from "../ConnectionManifest.ts"
import { vouchedOffer } from "./OfferVouching.ts"
import type { SuiDelegateOffer } from "./SuiDelegateOffer.ts"

const ID = `0x${"1".repeat(64)}`
const NOW = Date.parse("2026-11-26T12:00:00Z")

const manifest = (apiBaseUrl: string) =>
  ({
    version: 1,
    network: "sui:localnet",
    packageId: ID,
    publishedAt: ID,
    registryId: ID,
    apiBaseUrl,
    delegatedSignerId: "ds_1",
    delegate: ID,
    grants: [{
      grantId: "g_1",
      grantObjectId: ID,
      grantInitialSharedVersion: "1",
      pool: ID,
      poolInitialSharedVersion: "1",
      coinType: "0x2::sui::SUI",
      sessionCap: "1000",
      maxPerPayment: "100",
      expiry: "0"
    }],
    policy: []
  }) as unknown as ConnectionManifest

const offer = (resourceUrl: string) =>
  ({
    scheme: "sui-delegate",
    network: "sui:localnet",
    amount: "40",
    asset: "0x2::sui::SUI",
    payTo: ID,
    maxTimeoutSeconds: 300,
    extra: {
      paymentFlow: "upfront",
      assetTransferMethod: "spend_account::pay",
      nonce: "n",
      serviceId: "svc_1",
      method: "GET",
      path: "/answer",
      resourceUrl,
      packageId: ID,
      publishedAt: ID,
      expiresAt: new Date(NOW + 300_000).toISOString()
    }
  }) as unknown as SuiDelegateOffer

const request = (url: string) => ({ url: new URL(url), method: "GET" })

describe("vouchedOffer: only the gateway's own paid-call address", () => {
  it("pays the service's paid-call path on the manifest's gateway, under a base path too", () => {
    const direct = "https://gw.example/v1/pay/svc_1"
    expect(vouchedOffer(manifest("https://gw.example"), offer(direct), NOW, request(direct))._tag).toBe("Vouched")
    const based = "https://host.example/gateway/v1/pay/svc_1"
    expect(vouchedOffer(manifest("https://host.example/gateway"), offer(based), NOW, request(based))._tag).toBe("Vouched")
  })

  it("refuses a look-alike path on the same origin: another tenant relaying a real challenge", () => {
    const lookalike = "https://host.example/evil/v1/pay/svc_1"
    const vouching = vouchedOffer(manifest("https://host.example/gateway"), offer(lookalike), NOW, request(lookalike))
    expect(vouching).toMatchObject({ _tag: "Refused" })
    expect(vouchedOffer(manifest("https://gw.example"), offer("https://gw.example/x/v1/pay/svc_1"), NOW)._tag).toBe("Refused")
  })

  it("refuses another origin, and a request elsewhere than the resource", () => {
    const direct = "https://gw.example/v1/pay/svc_1"
    expect(vouchedOffer(manifest("https://gw.example"), offer(direct), NOW, request("https://site.example/v1/pay/svc_1"))._tag).toBe("Refused")
    expect(vouchedOffer(manifest("https://gw.example"), offer(direct), NOW, request("https://gw.example/v1/pay/svc_2"))._tag).toBe("Refused")
  })
})
