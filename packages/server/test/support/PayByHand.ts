import type { Signer } from "@mysten/sui/cryptography"
import type { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction, TransactionDataBuilder } from "@mysten/sui/transactions"
import { fromBase64 } from "@mysten/sui/utils"
import { type Duration, Effect } from "effect"
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import type { PaymentRequirements } from "@x402/core/types"
import * as Kinds from "@gateway/chain/transactions/Kinds"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { proofMessage, sha256Hex } from "@gateway/domain/PaymentProof"
import { memoOf } from "@gateway/domain/verify/PaymentVerifier"
import { TestLedger } from "./TestLedger.ts"

/**
 * Paying a 402 by hand, step by step and without the agent SDK's checks, so
 * tests can present what an honest SDK never would: wrong amounts, replayed
 * digests, spent nonces, late payments.
 */

export interface SharedRef {
  readonly objectId: string
  readonly initialSharedVersion: bigint
}

/** The grant and pool of a manifest's first grant, as `pay` names them. */
export const refs = (manifest: { grants: ReadonlyArray<{ grantObjectId: string; grantInitialSharedVersion: string; pool: string; poolInitialSharedVersion: string }> }) => {
  const g = manifest.grants[0]
  if (g === undefined) throw new Error("no grant in the manifest")
  return {
    grant: { objectId: g.grantObjectId, initialSharedVersion: BigInt(g.grantInitialSharedVersion) },
    pool: { objectId: g.pool, initialSharedVersion: BigInt(g.poolInitialSharedVersion) }
  }
}

/** The TransactionKind (base64) of one grant payment: `spend_account::pay` alone, built offline, `memo` (a nonce) as its memo. */
export const payKind = (input: {
  readonly agent: string
  readonly grant: SharedRef
  readonly pool: SharedRef
  readonly amount: bigint
  readonly recipient: string
  readonly memo: string
  readonly coinType?: string
}) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const registry = yield* ledger.sharedRef(ledger.pkg.registryId)
    const kind = yield* Effect.promise(() =>
      Kinds.pay(ledger.pkg, {
        sender: input.agent,
        registry,
        grant: input.grant,
        pool: input.pool,
        coinType: input.coinType ?? SUI_COIN_TYPE,
        amount: input.amount,
        recipient: input.recipient,
        memo: memoOf(input.memo)
      })
    )
    return kind.txKindBytes
  })

/** More than any `pay` costs: set, so that no dry run stands between a refused payment and the chain. */
const PAY_BUDGET = 50_000_000n

/** A payment through the agent's grant: `amount` to `recipient`, the challenge's nonce as memo. */
export interface GrantPayment {
  readonly agentKey: Ed25519Keypair
  readonly grant: SharedRef
  readonly pool: SharedRef
  readonly amount: bigint
  readonly recipient: string
  readonly nonce: string
  readonly coinType?: string
}

/** A grant payment as a transaction the agent sends and pays gas for, its budget set (no dry run shapes it). */
export const payTransaction = (input: GrantPayment) =>
  Effect.map(payKind({ ...input, agent: input.agentKey.toSuiAddress(), memo: input.nonce }), (kind) => {
    const transaction = Transaction.fromKind(fromBase64(kind))
    transaction.setSender(input.agentKey.toSuiAddress())
    transaction.setGasBudget(PAY_BUDGET)
    return transaction
  })

/** Asks for a fresh 402 and returns its x402 terms (the upfront `sui-delegate` offer, or `scheme`'s) and nonce. */
export const challengeOf = (url: string, method = "GET", scheme = "sui-delegate") =>
  Effect.gen(function*() {
    const header = yield* Effect.promise(() => fetch(url, { method }).then((r) => r.headers.get("payment-required") ?? ""))
    const terms = decodePaymentRequiredHeader(header).accepts.find((offer) => offer.scheme === scheme)
    if (terms === undefined) return yield* Effect.die("no terms")
    return { terms, nonce: String(terms.extra?.["nonce"]) }
  })

/**
 * Executes `pay` through the grant with the nonce as memo, without the
 * wallet's dry run, so a payment the chain refuses is on chain too; the
 * digest (computed from the signed bytes, as a wallet whose answer was lost
 * still knows it), after a checkpoint: the one the ledger's timer would make
 * next, made now instead of slept for, and under the same faults (none while
 * it is unavailable, an empty one under neverFinal). It neither needs the
 * execution's answer nor waits for the ledger to serve the transaction: under
 * the dropAfterExecute fault neither comes.
 */
export const pay = (input: GrantPayment) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const transaction = yield* payTransaction(input)
    const bytes = yield* Effect.promise(() => transaction.build({ client: ledger.client }))
    const { signature } = yield* Effect.promise(() => input.agentKey.signTransaction(bytes))
    yield* Effect.ignore(Effect.tryPromise(() => ledger.client.core.executeTransaction({ transaction: bytes, signatures: [signature] })))
    yield* Effect.ignore(ledger.checkpoint)
    return TransactionDataBuilder.getDigestFromBytes(bytes)
  })

/** What a request presents: its method and body, and who signs its proof of possession (none: no proof). */
export interface Presenter {
  readonly signer: Signer | undefined
  readonly method?: string
  readonly body?: Uint8Array<ArrayBuffer>
}

/**
 * The `PAYMENT-SIGNATURE` for `terms` carrying `digest`, with the signer's proof over this request
 * (the URL as called: the challenge's resource URL and its query string).
 */
export const credential = (url: string, terms: PaymentRequirements, digest: string, by: Presenter) =>
  Effect.promise(async () => {
    const nonce = String(terms.extra?.["nonce"])
    const message = proofMessage({ nonce, digest, method: by.method ?? "GET", url, bodySha256: await sha256Hex(by.body ?? new Uint8Array()) })
    const proof = by.signer === undefined || message === undefined ? {} : { proof: (await by.signer.signPersonalMessage(message)).signature }
    return encodePaymentSignatureHeader({ x402Version: 2, accepted: terms, payload: { digest, ...proof } })
  })

/** Presents a credential for `terms` carrying `digest`, proven by `by`; the status and JSON body. */
export const present = (url: string, terms: PaymentRequirements, digest: string, by: Presenter) =>
  Effect.flatMap(credential(url, terms, digest, by), (header) =>
    Effect.promise(() =>
      fetch(url, { method: by.method ?? "GET", headers: { "payment-signature": header }, ...(by.body === undefined ? {} : { body: by.body }) })
        .then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> }))
    ))

/** A fresh challenge, paid (with the overrides) and presented. */
export const payByHand = (input: {
  readonly url: string
  readonly agentKey: Ed25519Keypair
  readonly grant: SharedRef
  readonly pool: SharedRef
  readonly amount?: bigint
  readonly recipient?: string
  readonly coinType?: string
  /** Time to let pass between receiving the challenge and paying it. */
  readonly wait?: Duration.Input
}) =>
  Effect.gen(function*() {
    const { terms, nonce } = yield* challengeOf(input.url)
    if (input.wait !== undefined) yield* Effect.sleep(input.wait)
    const digest = yield* pay({
      agentKey: input.agentKey,
      grant: input.grant,
      pool: input.pool,
      amount: input.amount ?? BigInt(terms.amount),
      recipient: input.recipient ?? terms.payTo,
      nonce,
      ...(input.coinType === undefined ? {} : { coinType: input.coinType })
    })
    return { ...(yield* present(input.url, terms, digest, { signer: input.agentKey })), terms, nonce, digest }
  })
