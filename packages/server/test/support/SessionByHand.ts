import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { normalizeSuiAddress, toBase64 } from "@mysten/sui/utils"
import { Effect } from "effect"
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import type { PaymentRequirements } from "@x402/core/types"
import { openSession } from "@gateway/chain/transactions/SessionKinds"
import { voucherMessage } from "@gateway/domain/chain/SessionVoucher"
import { eventType, Events, Structs, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import type { SharedRef } from "./PayByHand.ts"
import { TestLedger } from "./TestLedger.ts"

/**
 * Payment sessions by hand: opening one through the grant as its delegate would, signing vouchers with the
 * session key, and presenting them, without the agent SDK's checks, so tests can present what it never would.
 */

/** The `sui-session` offer of a fresh 402 for `url`. */
export const sessionOffer = (url: string, method = "GET") =>
  Effect.gen(function*() {
    const header = yield* Effect.promise(() => fetch(url, { method }).then((r) => r.headers.get("payment-required") ?? ""))
    const offer = decodePaymentRequiredHeader(header).accepts.find((o) => o.scheme === "sui-session")
    if (offer === undefined) return yield* Effect.die("no sui-session offer in the 402")
    return offer
  })

export interface OpenedSession {
  readonly sessionId: string
  readonly sessionKey: Ed25519Keypair
  readonly digest: string
}

/** Opens a session through the agent's grant, with a fresh session key; its id, from the `SessionOpened` event. */
export const openByHand = (input: {
  readonly agentKey: Ed25519Keypair
  readonly grant: SharedRef
  readonly pool: SharedRef
  readonly payee: string
  readonly operator: string
  readonly deposit: bigint
  readonly expiryMs: bigint
  readonly sessionKey?: Ed25519Keypair
}) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const sessionKey = input.sessionKey ?? new Ed25519Keypair()
    const registry = yield* ledger.sharedRef(ledger.pkg.registryId)
    const kind = yield* Effect.promise(() =>
      openSession(ledger.pkg, {
        sender: input.agentKey.toSuiAddress(),
        registry,
        grant: input.grant,
        pool: input.pool,
        coinType: SUI_COIN_TYPE,
        payee: input.payee,
        operator: input.operator,
        deposit: input.deposit,
        expiryMs: input.expiryMs,
        voucherKey: sessionKey.getPublicKey().toRawBytes()
      })
    )
    const digest = yield* ledger.execute(kind.txKindBytes, input.agentKey)
    const tx = yield* Effect.promise(() => ledger.client.core.getTransaction({ digest, include: { events: true } }))
    const executed = tx.$kind === "Transaction" ? tx.Transaction : tx.FailedTransaction
    const opened = (executed.events ?? []).find((e) => e.eventType === eventType(ledger.pkg.originalId, "SessionOpened"))
    if (opened === undefined) return yield* Effect.die("no SessionOpened event")
    return { sessionId: normalizeSuiAddress(Events.SessionOpened.parse(opened.bcs).session_id), sessionKey, digest } satisfies OpenedSession
  })

/** The session key's signature (base64) over a voucher, or a final voucher, for `cumulative`. */
export const voucherSignature = (sessionKey: Ed25519Keypair, sessionId: string, cumulative: bigint, final = false) =>
  Effect.promise(async () => toBase64(await sessionKey.sign(voucherMessage(sessionId, cumulative, final))))

/** The x402 `PAYMENT-SIGNATURE` of a voucher. */
export const voucherHeader = (offer: PaymentRequirements, voucher: { readonly session: string; readonly cumulative: bigint; readonly signature: string }) =>
  encodePaymentSignatureHeader({
    x402Version: 2,
    accepted: offer,
    payload: { session: voucher.session, cumulativeAmount: voucher.cumulative.toString(), signature: voucher.signature }
  })

export interface VoucherAnswer {
  readonly status: number
  readonly body: Record<string, unknown>
  readonly paymentResponse: string | null
}

/** Presents a voucher signed by `signer` (the session key unless told) on a call to `url`. */
export const payWithVoucher = (
  url: string,
  offer: PaymentRequirements,
  session: Pick<OpenedSession, "sessionId" | "sessionKey">,
  cumulative: bigint,
  signer: Ed25519Keypair = session.sessionKey
) =>
  Effect.gen(function*() {
    const signature = yield* voucherSignature(signer, session.sessionId, cumulative)
    const header = voucherHeader(offer, { session: session.sessionId, cumulative, signature })
    return yield* Effect.promise(() =>
      fetch(url, { headers: { "payment-signature": header } }).then(async (r): Promise<VoucherAnswer> => ({
        status: r.status,
        body: await r.json().catch(() => ({})) as Record<string, unknown>,
        paymentResponse: r.headers.get("payment-response")
      }))
    )
  })

/** The session object on chain, decoded; undefined once it is closed (deleted). */
export const sessionOnChain = (sessionId: string) =>
  Effect.flatMap(TestLedger, (ledger) =>
    Effect.promise(() =>
      ledger.client.core.getObject({ objectId: sessionId, include: { content: true } }).then(
        ({ object }) => Structs.Session.parse(object.content),
        () => undefined
      )
    ))

/** A grant's `spent` on chain. */
export const grantSpent = (grantObjectId: string) =>
  Effect.flatMap(TestLedger, (ledger) => Effect.map(ledger.contents(grantObjectId), (bytes) => BigInt(Structs.Grant.parse(bytes).spent)))

/** A pool's balance on chain. */
export const poolBalance = (poolId: string) =>
  Effect.flatMap(TestLedger, (ledger) => Effect.map(ledger.contents(poolId), (bytes) => BigInt(Structs.Pool.parse(bytes).balance.value)))
