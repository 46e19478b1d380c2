import type { OpenedSession } from "./SessionOpening.ts"

/** One session the agent opened, and what it knows the gateway charged on it. */
export interface SessionSlot {
  readonly key: string
  readonly session: OpenedSession
  /** The amount of the last voucher the gateway charged (the seller answered its call). */
  charged: bigint
  /** The highest voucher presented whose answer was never seen: it may have been charged. */
  uncertain: bigint | undefined
  /** Takes no more vouchers (spent, near its expiry, closed or closing): a new one is opened instead. */
  retired: boolean
  closed: boolean
}
