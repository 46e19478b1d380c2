import type { ClientWithCoreApi } from "@mysten/sui/client"
import type { Signer } from "@mysten/sui/cryptography"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { Effect, Semaphore } from "effect"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import type { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import type { ManifestGrant } from "@gateway/domain/payment/OfferVouching"
import type { SessionOffer } from "@gateway/domain/payment/SessionOffer"
import { packageOf } from "./GrantPayment.ts"
import type { GasOptions, LedgerUnreachable } from "./OwnerWallet.ts"
import { PaymentRefused } from "./PaymentRefused.ts"
import { closeSlot, type SessionClose } from "./SessionClosing.ts"
import { openAgentSession, type OpenedSession } from "./SessionOpening.ts"
import type { SessionSlot } from "./SessionSlot.ts"
import { type SignedVoucher, signVoucher, type VoucherOutcome } from "./SessionVouchers.ts"

export interface SessionBookOptions {
  readonly manifest: ConnectionManifest
  /** The agent's key: it opens sessions (and pays their gas); vouchers are signed by each session's own key. */
  readonly signer: Signer
  readonly client: ClientWithCoreApi
  /** How many calls a new session's deposit pays for, within what the grant has left; 100 unless set. */
  readonly sessionCalls?: number
  /** Gas coins for opening sessions, for agents that run their own transactions concurrently. */
  readonly gas?: Effect.Effect<GasOptions, LedgerUnreachable>
}

/** A voucher the agent may present now: the session is its caller's until `settle`. */
export interface VoucherLease {
  readonly voucher: SignedVoucher
  readonly session: OpenedSession
  /** Records the gateway's answer and frees the session for its next call; only the first call counts. */
  readonly settle: (outcome: VoucherOutcome) => Effect.Effect<void>
}

export const DEFAULT_SESSION_CALLS = 100
/** Beyond the gateway's minimum, what a session must have left to be used: the call's own round trip. */
const USE_MARGIN_MS = 30_000n

const max = (a: bigint, b: bigint | undefined) => (b !== undefined && b > a ? b : a)

/** What the gateway's answer to `cumulative` tells about the session. */
const record = (slot: SessionSlot, cumulative: bigint, outcome: VoucherOutcome) => {
  switch (outcome._tag) {
    case "Charged":
      slot.charged = max(slot.charged, cumulative)
      if (slot.uncertain !== undefined && slot.uncertain <= slot.charged) slot.uncertain = undefined
      return
    case "Unknown":
      slot.uncertain = max(cumulative, slot.uncertain)
      return
    case "Behind": {
      // Only this agent signs the session's vouchers, one call at a time: the gateway is ahead by an unseen answer.
      const caught = max(slot.charged, max(outcome.alreadyUsed ? cumulative : 0n, slot.uncertain))
      if (caught === slot.charged) slot.retired = true
      slot.charged = caught
      slot.uncertain = undefined
      return
    }
    case "Retire":
      slot.retired = true
      return
    case "NotCharged":
    case "Busy":
      return
  }
}

/**
 * The agent's payment sessions, one seller (payee) and asset at a time: it opens one when none can pay the next
 * call, signs each call's voucher for what was charged plus the price, one call per session at a time, and closes
 * them all on request. A call the gateway did not charge (the seller failed) leaves the amount where it was, so
 * the next voucher is the same one. Shared by the agent SDK and `@gateway/sui-pay`'s x402 scheme and MPP method.
 */
export const makeSessionBook = (options: SessionBookOptions) => {
  const { manifest, signer, client } = options
  const pkg = packageOf(manifest)
  const calls = options.sessionCalls ?? DEFAULT_SESSION_CALLS
  const slots: Array<SessionSlot> = []
  const locks = new Map<string, Semaphore.Semaphore>()
  const lockOf = (key: string) => {
    const known = locks.get(key)
    if (known !== undefined) return known
    const made = Semaphore.makeUnsafe(1)
    locks.set(key, made)
    return made
  }

  /** The newest session of this payee and asset that can pay `price` now, or a new one. */
  const slotFor = (key: string, offer: SessionOffer, grant: ManifestGrant, price: bigint) =>
    Effect.gen(function*() {
      const usableUntil = BigInt(Date.now()) + BigInt(offer.extra.minRemainingSeconds) * 1000n + USE_MARGIN_MS
      for (const slot of slots.filter((s) => s.key === key && !s.retired)) {
        if (slot.session.expiryMs <= usableUntil) slot.retired = true
      }
      const usable = slots.findLast((s) => s.key === key && !s.retired && s.charged + price <= s.session.deposit)
      if (usable !== undefined) return usable
      const gas = options.gas === undefined
        ? undefined
        : yield* Effect.catchTag(options.gas, "LedgerUnreachable", (e) => Effect.fail(new PaymentRefused({ reason: `the chain cannot be reached for gas: ${e.reason}` })))
      const session = yield* openAgentSession({ pkg, signer, client, grant, offer, price, calls, ...(gas === undefined ? {} : { gas }) })
      const slot: SessionSlot = { key, session, charged: 0n, uncertain: undefined, retired: false, closed: false }
      slots.push(slot)
      return slot
    })

  /** Waits for the session of the offer's payee and asset to be free, then signs the voucher for this call. */
  const lease = (offer: SessionOffer, grant: ManifestGrant, price: bigint): Effect.Effect<VoucherLease, PaymentRefused> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.gen(function*() {
        const key = `${normalizeSuiAddress(offer.payTo)} ${normalizeCoinType(offer.asset)}`
        const lock = lockOf(key)
        yield* restore(lock.take(1))
        const { slot, voucher } = yield* restore(Effect.gen(function*() {
          const slot = yield* slotFor(key, offer, grant, price)
          return { slot, voucher: yield* signVoucher(slot.session.sessionKey, slot.session.sessionId, slot.charged + price) }
        })).pipe(Effect.onError(() => lock.release(1)))
        let settled = false
        const settle = (outcome: VoucherOutcome) =>
          Effect.suspend(() => {
            if (settled) return Effect.void
            settled = true
            record(slot, voucher.cumulative, outcome)
            return Effect.asVoid(lock.release(1))
          })
        return { voucher, session: slot.session, settle } satisfies VoucherLease
      })
    )

  /**
   * Closes every session opened here and not closed yet, through the gateway, with the final voucher for what
   * was charged (0 for a session never charged: its whole deposit goes back). Waits for a call in flight on it.
   */
  const closeAll = (): Effect.Effect<ReadonlyArray<SessionClose>> =>
    Effect.forEach(
      slots.filter((s) => !s.closed),
      (slot) => lockOf(slot.key).withPermit(closeSlot(manifest.apiBaseUrl, slot)),
      { concurrency: 4 }
    )

  /** What the agent knows of its sessions now; their keys stay inside. */
  const sessions = () => slots.map(({ session: { sessionKey: _key, ...session }, charged, retired, closed }) => ({ ...session, charged, retired, closed }))

  return { lease, closeAll, sessions }
}
export type SessionBook = ReturnType<typeof makeSessionBook>
