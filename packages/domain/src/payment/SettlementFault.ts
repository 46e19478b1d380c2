/**
 * Whose doing a failed settlement was (DESIGN.md, "Pay only for answers"). The network's: the epoch ended (the
 * signed payment expired with it), the reference gas price moved, the chain was congested or unreachable, or the
 * sponsor's own gas coin moved on (a sponsored payment takes no other owned object). The payer's: anything else —
 * the grant paused, revoked or spent, the owner withdrew, the payer's own coins spent elsewhere. A payer's failure
 * bans it from sign-first for a day; after the network's the payer signs the same challenge again and gets the kept
 * answer.
 */
export type SettlementFault = "payer" | "network"

const NETWORK = /epoch|expired|congest|overload|gas price|reference gas|timeout|unavailable|unreachable/i

/** An owned object at a version the chain no longer has: the only owned object of a sponsored payment is the sponsor's gas coin. */
const STALE_OBJECT = /not available for consumption|stale|object version|ObjectVersionUnavailable/i

export const settlementFaultOf = (reason: string, sponsored: boolean): SettlementFault =>
  NETWORK.test(reason) || (sponsored && STALE_OBJECT.test(reason)) ? "network" : "payer"
