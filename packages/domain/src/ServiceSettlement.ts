import { Schema } from "effect"

/**
 * When a service's sign-first payment is executed. After the seller answered by default, so a failed call costs
 * the agent nothing; before the call is forwarded for a seller whose API does something irreversible (sends an
 * email, places an order) and wants the money on chain first.
 */
export const ServiceSettlement = Schema.Literals(["after_answer", "before_forwarding"]).annotate({
  description:
    "when the agent's sign-first payment is executed: after the seller answered (the default: a failed call costs the agent nothing), or before the call is forwarded (for calls with side effects: the money is on chain before your API is called; a failed call is then the agent's to present again with the same payment)"
})
export type ServiceSettlement = typeof ServiceSettlement.Type

/** What terms that name no settlement mean, revisions stored before the option among them. */
export const DEFAULT_SETTLEMENT: ServiceSettlement = "after_answer"
