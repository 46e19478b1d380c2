import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { normalizeSuiAddress, toBase64 } from "@mysten/sui/utils"
import { Effect } from "effect"
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import { executeKind } from "@gateway/client/OwnerWallet"
import { openSession } from "@gateway/chain/transactions/SessionKinds"
import { AtomicAmount } from "@gateway/domain/Amount"
import { voucherMessage } from "@gateway/domain/chain/SessionVoucher"
import { eventType, Events, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { ObjectId } from "@gateway/domain/SuiAddress"
import { cpuMeter, type CpuPerOperation } from "./CpuMeter.ts"
import { payingAgent } from "./PayingAgent.ts"
import { step } from "./Progress.ts"
import { checkpointed, type Wallets } from "./Wallets.ts"
import { median, percentile, split } from "./Timing.ts"

const CALLS = 200
const WARM_UP_CALLS = 10

type Split = ReturnType<typeof split>

/** Session-paid calls: a voucher per call against one deposit, nothing on chain per call. */
export interface SessionFigures {
  readonly calls: number
  readonly direct: Split
  readonly paid: Split
  readonly addedP50: number
  readonly addedP99: number
  /** From each answer's `Server-Timing`: the gateway's own time (no chain wait: a voucher is checked without it). */
  readonly gatewayOwn: Split
  readonly cpuPerCall: CpuPerOperation
  /** What the close's `claim_and_close` paid the seller: every call's price, in one transaction. */
  readonly claimedAtClose: bigint
}

const gatewayOwn = (header: string | null) => Number(/gateway;dur=([0-9.]+)/.exec(header ?? "")?.[1] ?? Number.NaN)

/** The agent opens a session through its grant for the bench service's seller; its id and key. */
const openedSession = (wallets: Wallets, agentKey: Ed25519Keypair, manifest: Effect.Success<ReturnType<typeof payingAgent>>["manifest"], offer: { payTo: string; extra: Record<string, unknown> }) =>
  Effect.gen(function*() {
    const grant = manifest.grants[0]
    if (grant === undefined) return yield* Effect.die("no grant in the manifest")
    const sessionKey = new Ed25519Keypair()
    const { object: registry } = yield* Effect.promise(() => wallets.sui.core.getObject({ objectId: manifest.registryId }))
    const shared = registry.owner.$kind === "Shared" ? registry.owner.Shared : undefined
    if (shared === undefined) return yield* Effect.die("the Registry is not shared")
    const kind = yield* Effect.promise(() =>
      openSession({ originalId: manifest.packageId, publishedAt: manifest.publishedAt, registryId: manifest.registryId }, {
        sender: agentKey.toSuiAddress(),
        registry: { objectId: manifest.registryId, initialSharedVersion: BigInt(shared.initialSharedVersion) },
        grant: { objectId: grant.grantObjectId, initialSharedVersion: BigInt(grant.grantInitialSharedVersion) },
        pool: { objectId: grant.pool, initialSharedVersion: BigInt(grant.poolInitialSharedVersion) },
        coinType: SUI_COIN_TYPE,
        payee: offer.payTo,
        operator: String(offer.extra["sessionOperator"]),
        deposit: BigInt(CALLS + WARM_UP_CALLS) * 1_000n,
        expiryMs: BigInt(Date.now() + 86_400_000),
        voucherKey: sessionKey.getPublicKey().toRawBytes()
      })
    )
    const { digest } = yield* executeKind(kind.txKindBytes, agentKey, wallets.sui)
    yield* checkpointed(wallets, digest)
    const tx = yield* Effect.promise(() => wallets.sui.core.getTransaction({ digest, include: { events: true } }))
    const executed = tx.$kind === "Transaction" ? tx.Transaction : tx.FailedTransaction
    const opened = (executed.events ?? []).find((e) => e.eventType === eventType(manifest.packageId, "SessionOpened"))
    if (opened === undefined) return yield* Effect.die("the open emitted no SessionOpened")
    return { sessionId: normalizeSuiAddress(Events.SessionOpened.parse(opened.bcs).session_id), sessionKey }
  })

/**
 * Calls paid from one session, one after another: the agent signs a voucher (cumulative amount, Ed25519 with the
 * session key) and presents it with the call; the gateway checks it in memory and with one store statement, forwards,
 * and records it. The seller called directly first, then warm-up calls, then the measured ones, with each process's
 * CPU counted over those only. Then the session is closed with its final voucher: two transactions on chain in all.
 */
export const sessionCalls = (wallets: Wallets, pids: { readonly gateway: number; readonly ledger: number }, upstream: { readonly url: string }) =>
  Effect.gen(function*() {
    const { entry, agentKey, manifest } = yield* payingAgent(wallets, upstream.url, "session bench")
    const header = yield* Effect.promise(() => fetch(entry.resourceUrl).then((r) => r.headers.get("payment-required") ?? ""))
    const offer = decodePaymentRequiredHeader(header).accepts.find((o) => o.scheme === "sui-session")
    if (offer === undefined) return yield* Effect.die("the 402 offers no sui-session")
    const { sessionId, sessionKey } = yield* openedSession(wallets, agentKey, manifest, offer)
    const price = BigInt(entry.price)
    yield* step(`${CALLS} session-paid calls, and the seller called directly`)
    const direct: Array<number> = []
    for (let i = 0; i < CALLS; i++) {
      const from = performance.now()
      yield* Effect.promise(() => fetch(upstream.url).then((r) => r.text()))
      direct.push(performance.now() - from)
    }
    let cumulative = 0n
    const call = Effect.promise(async () => {
      const from = performance.now()
      const next = cumulative + price
      const signature = toBase64(await sessionKey.sign(voucherMessage(sessionId, next)))
      const credential = encodePaymentSignatureHeader({ x402Version: 2, accepted: offer, payload: { session: sessionId, cumulativeAmount: next.toString(), signature } })
      const response = await fetch(entry.resourceUrl, { headers: { "payment-signature": credential } })
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`a session-paid call was answered ${response.status}`)
      cumulative = next
      return { ms: performance.now() - from, own: gatewayOwn(response.headers.get("server-timing")) }
    })
    for (let i = 0; i < WARM_UP_CALLS; i++) yield* call
    const meter = cpuMeter(pids)
    const calls: Array<{ readonly ms: number; readonly own: number }> = []
    for (let i = 0; i < CALLS; i++) calls.push(yield* call)
    const cpuPerCall = meter.per(CALLS)
    const final = toBase64(yield* Effect.promise(() => sessionKey.sign(voucherMessage(sessionId, cumulative, true))))
    const closed = yield* wallets.api.paymentSessions.close({ params: { id: ObjectId.make(sessionId) }, payload: { cumulativeAmount: AtomicAmount.make(cumulative.toString()), signature: final } })
    const paid = calls.map((c) => c.ms)
    return {
      calls: CALLS,
      direct: split(direct),
      paid: split(paid),
      addedP50: median(paid) - median(direct),
      addedP99: percentile(paid, 99) - percentile(direct, 99),
      gatewayOwn: split(calls.map((c) => c.own)),
      cpuPerCall,
      claimedAtClose: BigInt(closed.claimed)
    } satisfies SessionFigures
  })
