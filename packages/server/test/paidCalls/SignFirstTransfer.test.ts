import { assert, describe, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { coinWithBalance, Transaction } from "@mysten/sui/transactions"
import { toBase64 } from "@mysten/sui/utils"
import { Effect, Layer } from "effect"
import { gatewayFor, paidService } from "../support/PaidEnv.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { Upstream } from "../support/Upstream.ts"
import { suiHeldBy } from "../support/SignByHand.ts"

const env = Layer.unwrap(Effect.map(Upstream, (upstream) => gatewayFor([upstream.url]))).pipe(Layer.provideMerge(Upstream.layer))

/**
 * A third-party `exact` client for Sui, as the scheme document describes it and nothing more: read the offer,
 * transfer `amount` of `asset` to `payTo` with `coinWithBalance`, sign without executing, send
 * `{ signature, transaction }`. No code of this repository is on the paying side.
 */
const payAsThirdParty = async (
  url: string,
  client: TestLedger["Service"]["client"],
  payer: Ed25519Keypair,
  transfer: { readonly amount?: bigint; readonly to?: string } = {}
) => {
  const required = JSON.parse(Buffer.from((await fetch(url)).headers.get("payment-required") ?? "", "base64").toString())
  const offer = required.accepts.find((a: { scheme: string; network: string }) => a.scheme === "exact")
  const tx = new Transaction()
  tx.setSender(payer.toSuiAddress())
  tx.transferObjects([coinWithBalance({ type: offer.asset, balance: transfer.amount ?? BigInt(offer.amount) })], transfer.to ?? offer.payTo)
  const { response } = await client.ledgerService.getEpoch({})
  tx.setExpiration({ Epoch: Number(response.epoch?.epoch ?? 0n) })
  const bytes = await tx.build({ client })
  const { signature } = await payer.signTransaction(bytes)
  const payment = { x402Version: 2, accepted: offer, payload: { signature, transaction: toBase64(bytes) } }
  const answer = await fetch(url, { headers: { "payment-signature": Buffer.from(JSON.stringify(payment)).toString("base64") } })
  return { status: answer.status, text: await answer.text(), receipt: answer.headers.get("payment-response") }
}

describe("sign-first payments from a payer's own coins (a plain coinWithBalance transfer)", () => {
  layer(env, { excludeTestServices: true })((it) => {
    it.effect("a third-party exact client pays from its own coins; the seller is paid once, after it answered", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry } = yield* paidService(upstream.url)
        const payer = new Ed25519Keypair()
        yield* ledger.gas(payer.toSuiAddress())
        const before = yield* suiHeldBy(entry.payTo)
        const paid = yield* Effect.promise(() => payAsThirdParty(entry.resourceUrl, ledger.client, payer))
        assert.strictEqual(paid.status, 200, paid.text)
        assert.deepInclude(JSON.parse(paid.text), { answer: 42 })
        assert.isNotNull(paid.receipt)
        assert.strictEqual((yield* suiHeldBy(entry.payTo)) - before, 40n)
      }))

    it.effect("a transfer of less than the price, or to someone else, is refused by its simulated balance change, and nothing moves", () =>
      Effect.gen(function*() {
        const upstream = yield* Upstream
        const ledger = yield* TestLedger
        const { entry } = yield* paidService(upstream.url)
        const payer = new Ed25519Keypair()
        yield* ledger.gas(payer.toSuiAddress())
        const calls = upstream.calls.length
        const before = yield* suiHeldBy(entry.payTo)
        const short = yield* Effect.promise(() => payAsThirdParty(entry.resourceUrl, ledger.client, payer, { amount: 39n }))
        assert.strictEqual(short.status, 400, short.text)
        assert.match(JSON.parse(short.text).reason, /balanceChanges: payTo receives 39/)
        const elsewhere = yield* Effect.promise(() =>
          payAsThirdParty(entry.resourceUrl, ledger.client, payer, { to: new Ed25519Keypair().toSuiAddress() })
        )
        assert.strictEqual(elsewhere.status, 400, elsewhere.text)
        assert.match(JSON.parse(elsewhere.text).reason, /balanceChanges: payTo receives 0/)
        assert.strictEqual(upstream.calls.length, calls, "nothing was forwarded")
        assert.strictEqual(yield* suiHeldBy(entry.payTo), before)
      }))
  })
})
