import { describe, expect, it } from "@effect/vitest"
import type { ConnectionManifest } from "../ConnectionManifest.ts"
import { NO_WINDOW, WindowKind } from "../chain/GrantWindow.ts"
import { type GrantState, vouchedByGrant, vouchedOffer } from "./OfferVouching.ts"
import type { ExactOffer } from "./ExactOffer.ts"
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

/** The sign-first offer of the same challenge: the same terms, its own flow, and the gas station. */
const exact = (resourceUrl: string, changed: Record<string, unknown> = {}) => {
  const upfront = offer(resourceUrl)
  return {
    ...upfront,
    scheme: "exact",
    extra: { ...upfront.extra, paymentFlow: "authorization", gasStation: "https://gw.example/v1/gas-station" },
    ...changed
  } as unknown as ExactOffer
}

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

describe("vouchedOffer: an exact (sign-first) offer, by the same rules", () => {
  const direct = "https://gw.example/v1/pay/svc_1"
  const gateway = manifest("https://gw.example")

  it("vouches for the service's exact offer, with the grant and amount that pay it", () => {
    const vouching = vouchedOffer(gateway, exact(direct), NOW, request(direct))
    expect(vouching).toMatchObject({ _tag: "Vouched", amount: 40n, grant: { grantId: "g_1" } })
  })

  it("refuses an exact offer from elsewhere, for another service, package or network", () => {
    const elsewhere = "https://site.example/v1/pay/svc_1"
    expect(vouchedOffer(gateway, exact(elsewhere), NOW)).toMatchObject({ _tag: "Refused", reason: expect.stringMatching(/^origin: /) })
    expect(vouchedOffer(gateway, exact(direct), NOW, request("https://gw.example/v1/pay/svc_2"))).toMatchObject({
      _tag: "Refused",
      reason: expect.stringMatching(/^service: /)
    })
    const otherPackage = exact(direct)
    const foreign = { ...otherPackage, extra: { ...otherPackage.extra, packageId: `0x${"2".repeat(64)}` } }
    expect(vouchedOffer(gateway, foreign, NOW)).toMatchObject({ _tag: "Refused", reason: expect.stringMatching(/^package: /) })
    expect(vouchedOffer(gateway, exact(direct, { network: "sui:mainnet" }), NOW)).toMatchObject({ _tag: "Refused", reason: expect.stringMatching(/^network: /) })
  })

  it("refuses an exact offer over the per-payment cap, in another asset, or about to expire", () => {
    expect(vouchedOffer(gateway, exact(direct, { amount: "101" }), NOW)).toMatchObject({
      _tag: "Refused",
      reason: "amount: 101 exceeds the per-payment cap 100: the service asks 101 atomic units of 0x2::sui::SUI, above your grant's maxPerPayment 100; ask the owner to raise it"
    })
    expect(vouchedOffer(gateway, exact(direct, { asset: "0x2::coin::OTHER" }), NOW)).toMatchObject({
      _tag: "Refused",
      reason: expect.stringMatching(/^asset: /)
    })
    const expiring = exact(direct)
    const soon = { ...expiring, extra: { ...expiring.extra, expiresAt: new Date(NOW + 1_000).toISOString() } }
    expect(vouchedOffer(gateway, soon, NOW)).toMatchObject({ _tag: "Refused", reason: expect.stringMatching(/^expiry: /) })
  })

  it("refuses another method than the service's", () => {
    expect(vouchedOffer(gateway, exact(direct), NOW, { url: new URL(direct), method: "POST" })).toMatchObject({
      _tag: "Refused",
      reason: expect.stringMatching(/^method: /)
    })
  })
})

describe("vouchedByGrant: what the grant on chain would refuse", () => {
  const DAY = 86_400_000n
  const START = BigInt(NOW) - 3_600_000n
  const daily = (spent: bigint): GrantState => ({
    window: { kind: WindowKind.period, periodMs: DAY, limit: 300n, startMs: START, spent },
    recipients: []
  })
  const payment = (amount: bigint, recipient = ID) => ({ amount, recipient, asset: "0x2::sui::SUI" })

  it("pays within what the window has left, up to exactly its limit", () => {
    expect(vouchedByGrant(daily(200n), payment(100n), NOW)._tag).toBe("Vouched")
    expect(vouchedByGrant({ window: NO_WINDOW, recipients: [] }, payment(10_000n), NOW)._tag).toBe("Vouched")
  })

  it("refuses more than the window has left, saying how much and until when", () => {
    const vouching = vouchedByGrant(daily(250n), payment(51n), NOW)
    expect(vouching).toEqual({
      _tag: "Refused",
      reason: `window: 51 exceeds the 50 left of the grant's 300 per window for 0x2::sui::SUI, until ${new Date(Number(START + DAY)).toISOString()}`
    })
  })

  it("counts a window that has ended as empty, as the chain rolls it", () => {
    expect(vouchedByGrant(daily(300n), payment(100n), Number(START + DAY))._tag).toBe("Vouched")
    expect(vouchedByGrant(daily(300n), payment(100n), Number(START + DAY) - 1)._tag).toBe("Refused")
  })

  it("refuses a recipient the grant does not list, comparing addresses normalized", () => {
    const listed: GrantState = { window: NO_WINDOW, recipients: [`0x${"2".repeat(64)}`] }
    expect(vouchedByGrant(listed, payment(1n), NOW)).toMatchObject({ _tag: "Refused", reason: expect.stringMatching(/^recipient: /) })
    expect(vouchedByGrant(listed, payment(1n, `0x${"2".repeat(64).toUpperCase()}`), NOW)._tag).toBe("Vouched")
  })
})
