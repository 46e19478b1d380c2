import type { ClientWithCoreApi } from "@mysten/sui/client"
import type { Signer } from "@mysten/sui/cryptography"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { Effect } from "effect"
import { openSession } from "@gateway/chain/transactions/SessionKinds"
import { eventType, Events, type SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import type { ManifestGrant } from "@gateway/domain/payment/OfferVouching"
import type { SessionOffer } from "@gateway/domain/payment/SessionOffer"
import { untilCheckpointed } from "./Finality.ts"
import { registryRef } from "./GrantPayment.ts"
import { executeKind, type GasOptions } from "./OwnerWallet.ts"
import { PaymentRefused } from "./PaymentRefused.ts"
import { readSessionRoom, sessionTerms } from "./SessionFunding.ts"

/** A session this agent opened: the key that signs its vouchers never leaves the agent, as its own key does not. */
export interface OpenedSession {
  readonly sessionId: string
  /** A fresh Ed25519 key for this session alone: a leaked one spends at most this deposit, never the grant. */
  readonly sessionKey: Ed25519Keypair
  readonly payee: string
  readonly asset: string
  readonly deposit: bigint
  readonly expiryMs: bigint
  readonly digest: string
}

/** How long the open's checkpoint is waited for: the gateway reads the session from the chain on its first voucher. */
const FINALITY_TIMEOUT_MS = 30_000

const refuse = (reason: string, digest?: string) => Effect.fail(new PaymentRefused({ reason, ...(digest === undefined ? {} : { digest }) }))

/** The new session's id, from the `SessionOpened` event of the transaction that opened it. */
const openedSessionId = (client: ClientWithCoreApi, pkg: SpendAccountPackage, digest: string) =>
  Effect.tryPromise({
    try: () => client.core.waitForTransaction({ digest, include: { events: true } }),
    catch: (error) => new PaymentRefused({ reason: `the session's opening ${digest} could not be read: ${String(error)}`, digest })
  }).pipe(Effect.flatMap((result) => {
    const tx = result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction
    const opened = (tx.events ?? []).find((e) => e.eventType === eventType(pkg.originalId, "SessionOpened"))
    return opened === undefined
      ? refuse(`the session's opening ${digest} emitted no SessionOpened event`, digest)
      : Effect.succeed(normalizeSuiAddress(Events.SessionOpened.parse(opened.bcs).session_id))
  }))

/**
 * Opens a session for the offer's payee through the grant (`spend_account::open_session`), with the agent's own
 * key and gas, as an upfront payment is made: deposit and expiry by `sessionTerms` from the grant as the chain
 * holds it now, and a fresh session key. Waits for its checkpoint, so its first voucher finds it.
 */
export const openAgentSession = (input: {
  readonly pkg: SpendAccountPackage
  readonly signer: Signer
  readonly client: ClientWithCoreApi
  readonly grant: ManifestGrant
  readonly offer: SessionOffer
  readonly price: bigint
  readonly calls: number
  readonly gas?: GasOptions
}) =>
  Effect.gen(function*() {
    const { pkg, client, grant, offer } = input
    const room = yield* Effect.tryPromise({
      try: () => readSessionRoom(client, { packageId: pkg.originalId, grantObjectId: grant.grantObjectId, poolId: grant.pool }),
      catch: (error) => new PaymentRefused({ reason: `the grant ${grant.grantObjectId} could not be read from the chain: ${String(error)}` })
    })
    const minRemainingMs = BigInt(offer.extra.minRemainingSeconds) * 1000n
    const terms = sessionTerms(room, { price: input.price, calls: input.calls, payee: offer.payTo, minRemainingMs })
    if (terms._tag === "Refused") return yield* refuse(`no session opened: ${terms.reason}`)
    const sessionKey = new Ed25519Keypair()
    const registry = yield* registryRef(client, pkg.registryId)
    const kind = yield* Effect.tryPromise({
      try: () =>
          openSession(pkg, {
            sender: input.signer.toSuiAddress(),
            registry,
            grant: { objectId: grant.grantObjectId, initialSharedVersion: BigInt(grant.grantInitialSharedVersion) },
            pool: { objectId: grant.pool, initialSharedVersion: BigInt(grant.poolInitialSharedVersion) },
            coinType: grant.coinType,
            payee: offer.payTo,
            operator: offer.extra.sessionOperator,
            deposit: terms.deposit,
            expiryMs: terms.expiryMs,
            voucherKey: sessionKey.getPublicKey().toRawBytes()
          }),
      catch: (error) => new PaymentRefused({ reason: `the session's opening could not be built: ${String(error)}` })
    })
    const executed = yield* executeKind(kind.txKindBytes, input.signer, client, input.gas).pipe(
      Effect.catchTags({
        KindRefused: (refused) => refuse(`the chain refused the session's opening: ${refused.reason}`),
        LedgerUnreachable: (e) => refuse(`the chain could not be reached to open a session: ${e.reason}`)
      })
    )
    if (executed.status === "failure") return yield* refuse(`the chain refused the session's opening: ${executed.error ?? "failure"}`, executed.digest)
    const sessionId = yield* openedSessionId(client, pkg, executed.digest)
    yield* Effect.ignore(Effect.tryPromise(() => untilCheckpointed(client, executed.digest, FINALITY_TIMEOUT_MS)))
    return {
      sessionId,
      sessionKey,
      payee: normalizeSuiAddress(offer.payTo),
      asset: grant.coinType,
      deposit: terms.deposit,
      expiryMs: terms.expiryMs,
      digest: executed.digest
    } satisfies OpenedSession
  })
