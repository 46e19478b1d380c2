import { describe, expect, it } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64 } from "@mysten/sui/utils"
import * as Kinds from "@gateway/chain/transactions/Kinds"
import { checkSponsoredPayment } from "./SponsoredPaymentCheck.ts"

const id = (digit: string) => `0x${digit.repeat(64)}`
const PKG = { originalId: id("a"), publishedAt: id("a"), registryId: id("b") }
const AGENT = new Ed25519Keypair().toSuiAddress()
const SPONSOR = new Ed25519Keypair().toSuiAddress()
const SELLER = id("5")
const EPOCH = 7n

/** The agent's payment, as `pay` builds it: the kind it sends the gas station. */
const payKind = async (change: { readonly amount?: bigint; readonly recipient?: string } = {}) =>
  fromBase64((await Kinds.pay(PKG, {
    sender: AGENT,
    registry: { objectId: id("b"), initialSharedVersion: 1n },
    grant: { objectId: id("c"), initialSharedVersion: 3n },
    pool: { objectId: id("d"), initialSharedVersion: 2n },
    coinType: "0x2::sui::SUI",
    amount: change.amount ?? 40n,
    recipient: change.recipient ?? SELLER,
    memo: new TextEncoder().encode("nonce-1")
  })).txKindBytes)

/** What an honest station answers for `kind`, after `edit` (a hostile station's change) is applied. */
const stationAnswer = (kind: Uint8Array, edit: (tx: Transaction) => void = () => {}) => {
  const tx = Transaction.fromKind(kind)
  tx.setSender(AGENT)
  tx.setGasOwner(SPONSOR)
  tx.setGasPayment([{ objectId: id("e"), version: "9", digest: "4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi" }])
  tx.setGasPrice(1000)
  tx.setGasBudget(10_000_000)
  tx.setExpiration({ Epoch: Number(EPOCH) })
  edit(tx)
  return tx.build()
}

const check = async (transaction: Uint8Array, kind?: Uint8Array) =>
  checkSponsoredPayment({ transaction, kind: kind ?? await payKind(), sender: AGENT, latestEpoch: EPOCH, declared: { sender: AGENT, sponsor: SPONSOR } })

describe("checkSponsoredPayment: the agent signs only its own payment, whatever the gas station answers", () => {
  it("accepts the payment sent, sent by the agent, the sponsor paying gas, expiring at the current epoch", async () => {
    const kind = await payKind()
    expect(await check(await stationAnswer(kind), kind)).toEqual({ ok: true })
  })

  it("refuses a transaction paying another recipient", async () => {
    const hostile = await stationAnswer(await payKind({ recipient: id("6") }))
    expect(await check(hostile)).toMatchObject({ ok: false, reason: expect.stringMatching(/^kind: /) })
  })

  it("refuses a transaction paying another amount", async () => {
    const hostile = await stationAnswer(await payKind({ amount: 100n }))
    expect(await check(hostile)).toMatchObject({ ok: false, reason: expect.stringMatching(/^kind: /) })
  })

  it("refuses another sender", async () => {
    const other = new Ed25519Keypair().toSuiAddress()
    const hostile = await stationAnswer(await payKind(), (tx) => tx.setSender(other))
    expect(await check(hostile)).toMatchObject({ ok: false, reason: expect.stringMatching(/^sender: /) })
  })

  it("refuses a transaction whose gas the agent would pay, named or by default", async () => {
    const named = await stationAnswer(await payKind(), (tx) => tx.setGasOwner(AGENT))
    expect(await check(named)).toMatchObject({ ok: false, reason: expect.stringMatching(/^gasOwner: /) })
    // No gas owner in the bytes: the sender pays.
    const data = Transaction.from(await stationAnswer(await payKind())).getData()
    const unowned = Transaction.from(JSON.stringify({ ...data, gasData: { ...data.gasData, owner: null } }))
    expect(await check(await unowned.build())).toMatchObject({ ok: false, reason: expect.stringMatching(/^gasOwner: /) })
  })

  it("refuses a command added to the payment", async () => {
    const hostile = await stationAnswer(await payKind(), (tx) => {
      tx.transferObjects([tx.splitCoins(tx.gas, [1])], SPONSOR)
    })
    expect(await check(hostile)).toMatchObject({ ok: false, reason: expect.stringMatching(/^kind: /) })
  })

  it("refuses a transaction that never expires, or expires epochs from now", async () => {
    const forever = await stationAnswer(await payKind(), (tx) => tx.setExpiration({ None: true }))
    expect(await check(forever)).toMatchObject({ ok: false, reason: expect.stringMatching(/^expiration: none/) })
    const later = await stationAnswer(await payKind(), (tx) => tx.setExpiration({ Epoch: Number(EPOCH + 5n) }))
    expect(await check(later)).toMatchObject({ ok: false, reason: expect.stringMatching(/^expiration: epoch 12 is past/) })
    // The epoch may have turned while the station built it.
    const next = await stationAnswer(await payKind(), (tx) => tx.setExpiration({ Epoch: Number(EPOCH + 1n) }))
    expect((await check(next)).ok).toBe(true)
  })

  it("refuses bytes that are not a transaction, and an answer whose declared sponsor is not the bytes'", async () => {
    expect(await check(new Uint8Array([1, 2, 3]))).toMatchObject({ ok: false, reason: expect.stringMatching(/^transaction: /) })
    const kind = await payKind()
    const declaredOther = checkSponsoredPayment({
      transaction: await stationAnswer(kind),
      kind,
      sender: AGENT,
      declared: { sender: AGENT, sponsor: id("7") }
    })
    expect(declaredOther).toMatchObject({ ok: false, reason: expect.stringMatching(/^sponsor: /) })
  })
})
