import type { ClientWithCoreApi } from "@mysten/sui/client"
import { normalizeStructTag, normalizeSuiAddress } from "@mysten/sui/utils"
import { windowRemaining } from "@gateway/domain/chain/GrantWindow"
import { CLOCK_OBJECT_ID, grantType, grantWindowOf, Structs } from "@gateway/domain/chain/SpendAccountModule"
import { SESSION_MAX_LIFETIME_MS } from "@gateway/domain/chain/SessionVoucher"

/** What the grant can put into a new session now, as the chain holds it: `open_session` checks all of it. */
export interface SessionRoom {
  /** The chain's Clock: `open_session` checks the expiry against it, not against the payer's clock. */
  readonly chainNowMs: bigint
  /** The grant's budget left (`session_cap - spent`). */
  readonly budgetLeft: bigint
  /** What the grant's window has left now; undefined without a window. */
  readonly windowLeft: bigint | undefined
  readonly poolBalance: bigint
  /** 0 for none. */
  readonly grantExpiryMs: bigint
  readonly paused: boolean
  readonly revoked: boolean
  /** Empty for any payee. */
  readonly recipients: ReadonlyArray<string>
}

/**
 * Reads the grant, its pool and the Clock in one request. Fails on an object that is not a Grant of the
 * manifest's package or a pool that is not the grant's: a deposit is never taken on a stranger's word.
 */
export const readSessionRoom = async (
  client: ClientWithCoreApi,
  input: { readonly packageId: string; readonly grantObjectId: string; readonly poolId: string }
): Promise<SessionRoom> => {
  const { objects } = await client.core.getObjects({ objectIds: [input.grantObjectId, input.poolId, CLOCK_OBJECT_ID], include: { content: true } })
  const [grant, pool, clock] = objects
  if (grant === undefined || grant instanceof Error) throw new Error(`the grant ${input.grantObjectId} could not be read`)
  if (pool === undefined || pool instanceof Error) throw new Error(`the pool ${input.poolId} could not be read`)
  if (clock === undefined || clock instanceof Error) throw new Error("the chain's Clock could not be read")
  if (normalizeStructTag(grant.type) !== normalizeStructTag(grantType(input.packageId))) {
    throw new Error(`${input.grantObjectId} is not a Grant of ${input.packageId}`)
  }
  const fields = Structs.Grant.parse(grant.content)
  if (normalizeSuiAddress(fields.pool_id) !== normalizeSuiAddress(input.poolId)) throw new Error(`${input.poolId} is not the grant's pool`)
  const chainNowMs = BigInt(Structs.Clock.parse(clock.content).timestamp_ms)
  const cap = BigInt(fields.session_cap)
  const spent = BigInt(fields.spent)
  return {
    chainNowMs,
    budgetLeft: cap > spent ? cap - spent : 0n,
    windowLeft: windowRemaining(grantWindowOf(fields), chainNowMs),
    poolBalance: BigInt(Structs.Pool.parse(pool.content).balance.value),
    grantExpiryMs: BigInt(fields.expiry_ms),
    paused: fields.paused,
    revoked: fields.revoked,
    recipients: fields.recipients
  }
}

/** A session lives a day at most here: vouchers are cheap, and a shorter life bounds what a lost key can spend. */
export const SESSION_LIFETIME_MS = 86_400_000n
/** Beyond the gateway's minimum, the time a new session must have left to be worth opening: a few minutes of calls. */
const OPEN_MARGIN_MS = 300_000n

export type SessionTerms =
  | { readonly _tag: "Open"; readonly deposit: bigint; readonly expiryMs: bigint }
  | { readonly _tag: "Refused"; readonly reason: string }

const minOf = (first: bigint, ...rest: ReadonlyArray<bigint | undefined>) =>
  rest.reduce<bigint>((least, n) => (n !== undefined && n < least ? n : least), first)

/**
 * The deposit and expiry of a new session: `calls` × the price, within what the grant (budget and window) and
 * its pool have left; expiring a day from now, or at the grant's expiry if sooner. Refused when the grant would
 * refuse it, or when it could not pay even one call or would expire before it could be used.
 */
export const sessionTerms = (
  room: SessionRoom,
  input: { readonly price: bigint; readonly calls: number; readonly payee: string; readonly minRemainingMs: bigint }
): SessionTerms => {
  if (room.revoked) return { _tag: "Refused", reason: "grant: revoked by its owner" }
  if (room.paused) return { _tag: "Refused", reason: "grant: paused by its owner" }
  const payee = normalizeSuiAddress(input.payee)
  if (room.recipients.length > 0 && !room.recipients.some((r) => normalizeSuiAddress(r) === payee)) {
    return { _tag: "Refused", reason: `recipient: ${input.payee} is not among the grant's recipients` }
  }
  const lifetime = SESSION_LIFETIME_MS < SESSION_MAX_LIFETIME_MS ? SESSION_LIFETIME_MS : SESSION_MAX_LIFETIME_MS
  const expiryMs = minOf(room.chainNowMs + lifetime, room.grantExpiryMs === 0n ? undefined : room.grantExpiryMs)
  if (expiryMs - room.chainNowMs < input.minRemainingMs + OPEN_MARGIN_MS) {
    return { _tag: "Refused", reason: "expiry: the grant expires too soon for a session to be used" }
  }
  const calls = Number.isSafeInteger(Math.floor(input.calls)) && input.calls >= 1 ? Math.floor(input.calls) : 1
  const deposit = minOf(BigInt(calls) * input.price, room.budgetLeft, room.windowLeft, room.poolBalance)
  if (deposit < input.price) {
    return { _tag: "Refused", reason: `budget: the grant has ${deposit} left (budget, window and pool), less than one call (${input.price})` }
  }
  return { _tag: "Open", deposit, expiryMs }
}
