import { assert, describe, it } from "@effect/vitest"
import { normalizeSuiAddress, toBase64 } from "@mysten/sui/utils"
import { Events } from "../chain/SpendAccountModule.ts"
import type { PaymentTransaction } from "../verify/PaymentTransaction.ts"
import { memoOf } from "../verify/PaymentVerifier.ts"
import type { AskedCall } from "./PaidCallDecision.ts"
import { checkSignedTerms, checkSimulatedPayment, type SimulatedPayment } from "./SignedPaymentCheck.ts"

const pkg = { originalId: normalizeSuiAddress("0xa1"), publishedAt: normalizeSuiAddress("0xa1"), registryId: normalizeSuiAddress("0xb1") }
const SUI = "0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI"
const PAY_TO = normalizeSuiAddress("0x5e11e4")
const AGENT = normalizeSuiAddress("0xa9e47")
const GRANT = normalizeSuiAddress("0xc1")
const POOL = normalizeSuiAddress("0xd1")
const NONCE = "svc_x.1.2.abc.def"

const asked: AskedCall = { serviceId: "svc_x", name: "Answers", method: "GET", path: "/answer", price: 40n, payTo: PAY_TO, asset: "0x2::sui::SUI" }

const grantTx = (change: Partial<{ amount: bigint; recipient: string; memo: Uint8Array; epoch: bigint }> = {}): PaymentTransaction => ({
  sender: AGENT,
  gasOwner: AGENT,
  gasPayment: [],
  gasPrice: 1000n,
  gasBudget: 1n,
  expiration: { _tag: "Epoch", epoch: change.epoch ?? 3n },
  shape: {
    _tag: "GrantPayment",
    coinType: SUI,
    grantObjectId: GRANT,
    poolId: POOL,
    amount: change.amount ?? 40n,
    recipient: change.recipient ?? PAY_TO,
    memo: change.memo ?? memoOf(NONCE)
  },
  ownedObjectIds: []
})

const terms = { asked, nonce: NONCE, network: "localnet", currentEpoch: 3n }
const echoed = { network: "sui:localnet", amount: "40", asset: "0x2::sui::SUI", payTo: PAY_TO }

const paymentMade = (fields: Partial<{ delegate: string; amount: bigint; recipient: string; memo: Uint8Array; grant: string }> = {}) => ({
  type: `${pkg.originalId}::spend_account::PaymentMade`,
  sender: AGENT,
  parsedJson: null,
  bcs: toBase64(Events.PaymentMade.serialize({
    grant_id: fields.grant ?? GRANT,
    pool_id: POOL,
    delegate: fields.delegate ?? AGENT,
    recipient: fields.recipient ?? PAY_TO,
    amount: fields.amount ?? 40n,
    spent: 40n,
    window_spent: 0n,
    memo: [...(fields.memo ?? memoOf(NONCE))]
  }).toBytes())
})

const simulated = (change: Partial<SimulatedPayment> = {}): SimulatedPayment => ({
  success: true,
  error: null,
  events: [paymentMade()],
  balanceChanges: [{ coinType: SUI, address: PAY_TO, amount: "40" }],
  ...change
})

describe("checkSignedTerms", () => {
  it("accepts the challenge's own terms, expiring with the current epoch", () => {
    assert.deepStrictEqual(checkSignedTerms(grantTx(), echoed, terms), { ok: true })
  })

  it("names what differs: the echoed offer, the expiry, the pay call's amount, recipient or memo", () => {
    const reasons = [
      checkSignedTerms(grantTx(), { ...echoed, amount: "39" }, terms),
      checkSignedTerms(grantTx(), { ...echoed, network: "sui:mainnet" }, terms),
      checkSignedTerms(grantTx({ epoch: 4n }), echoed, terms),
      checkSignedTerms(grantTx({ amount: 41n }), echoed, terms),
      checkSignedTerms(grantTx({ recipient: AGENT }), echoed, terms),
      checkSignedTerms(grantTx({ memo: memoOf("another") }), echoed, terms)
    ].map((r) => (r.ok ? "ok" : r.reason.split(":")[0]))
    assert.deepStrictEqual(reasons, ["accepted.amount", "accepted.network", "transaction.expiration", "pay.amount", "pay.recipient", "pay.memo"])
  })
})

describe("checkSimulatedPayment", () => {
  const check = (s: SimulatedPayment) => checkSimulatedPayment(s, grantTx(), { pkg, asked, nonce: NONCE })

  it("accepts exactly the price to payTo and one PaymentMade of the sender's grant", () => {
    assert.deepStrictEqual(check(simulated()), { ok: true, grant: { grantObjectId: GRANT, poolId: POOL } })
  })

  it("refuses a failed simulation, another balance change, and a PaymentMade that is not this payment's", () => {
    const reasons = [
      check(simulated({ success: false, error: "MoveAbort 3" })),
      check(simulated({ balanceChanges: [{ coinType: SUI, address: PAY_TO, amount: "39" }] })),
      check(simulated({ balanceChanges: [{ coinType: SUI, address: AGENT, amount: "40" }] })),
      check(simulated({ events: [] })),
      check(simulated({ events: [paymentMade(), paymentMade()] })),
      check(simulated({ events: [paymentMade({ delegate: PAY_TO })] })),
      check(simulated({ events: [paymentMade({ memo: memoOf("another") })] })),
      check(simulated({ events: [paymentMade({ grant: POOL })] }))
    ].map((r) => (r.ok ? "ok" : r.reason.split(":")[0]))
    assert.deepStrictEqual(reasons, [
      "simulation",
      "balanceChanges",
      "balanceChanges",
      "events",
      "events",
      "PaymentMade.delegate",
      "PaymentMade.memo",
      "PaymentMade.grant_id"
    ])
  })
})
