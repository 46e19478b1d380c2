import type { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { TransactionDataBuilder } from "@mysten/sui/transactions"
import { toBase64 } from "@mysten/sui/utils"
import { Effect } from "effect"
import { encodePaymentSignatureHeader } from "@x402/core/http"
import type { PaymentRequirements } from "@x402/core/types"
import { type GrantPayment, payTransaction } from "./PayByHand.ts"
import { TestLedger } from "./TestLedger.ts"

/** A signed, unexecuted payment: the scheme document's payload, and the digest it will have once executed. */
export interface SignedPayment {
  readonly transaction: string
  readonly signature: string
  readonly digest: string
}

/**
 * Signs, without executing, a grant payment (`pay` through the grant, the nonce as memo) whose gas the agent pays
 * itself, expiring with the ledger's epoch; overrides make the bytes an honest SDK never would.
 */
export const signGrantPayment = (input: GrantPayment & {
  readonly signer?: Ed25519Keypair
  readonly expiration?: "none" | bigint
}) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const transaction = yield* payTransaction(input)
    // Expiring with the ledger's current epoch unless told otherwise, as the gateway asks.
    const current = yield* Effect.promise(() => ledger.client.core.getCurrentSystemState()).pipe(Effect.map((s) => BigInt(s.systemState.epoch)))
    if (input.expiration !== "none") transaction.setExpiration({ Epoch: Number(input.expiration ?? current) })
    const bytes = yield* Effect.promise(() => transaction.build({ client: ledger.client }))
    const { signature } = yield* Effect.promise(() => (input.signer ?? input.agentKey).signTransaction(bytes))
    return { transaction: toBase64(bytes), signature, digest: TransactionDataBuilder.getDigestFromBytes(bytes) } satisfies SignedPayment
  })

/** x402's `PAYMENT-SIGNATURE` of an `exact` payment: the offer echoed, the signed transaction as the payload. */
export const exactHeader = (offer: PaymentRequirements, signed: Pick<SignedPayment, "transaction" | "signature">) =>
  encodePaymentSignatureHeader({ x402Version: 2, accepted: offer, payload: { transaction: signed.transaction, signature: signed.signature } })

/** Presents a signed payment; status, JSON body (or text) and the `PAYMENT-RESPONSE` header. */
export const presentSigned = (url: string, offer: PaymentRequirements, signed: Pick<SignedPayment, "transaction" | "signature">) =>
  Effect.promise(() =>
    fetch(url, { headers: { "payment-signature": exactHeader(offer, signed) } }).then(async (r) => {
      const text = await r.text()
      let body: Record<string, unknown> = {}
      try {
        body = JSON.parse(text) as Record<string, unknown>
      } catch {
        body = { text }
      }
      return { status: r.status, body, paymentResponse: r.headers.get("payment-response"), serverTiming: r.headers.get("server-timing") }
    })
  )

/** Whether the chain knows the transaction: a signed payment moves money only once executed. */
export const executedOnChain = (digest: string) =>
  Effect.flatMap(TestLedger, (ledger) => Effect.promise(() => ledger.client.core.getTransaction({ digest }).then(() => true, () => false)))

/** What `owner` holds in SUI, coins and address balance together, in MIST. */
export const suiHeldBy = (owner: string) =>
  Effect.flatMap(TestLedger, (ledger) => Effect.promise(() => ledger.client.core.getBalance({ owner }).then((b) => BigInt(b.balance.balance))))
