import { SUMMARY, TITLE } from "./GatewaySummary.ts"
import { PROCEDURE } from "./PaymentProcedure.ts"
import { publicRoutes } from "./PublicRoutes.ts"

/** `/SKILL.md`: the agent's procedure and rules for this gateway, on its network. */
export const skillMd = (origin: string, network: string) =>
  [
    "---",
    "name: sui-delegated-gateway",
    `description: Discover paid HTTP services at ${origin} and pay for a call on Sui (${network}) through a delegated grant, within the owner's policy and caps.`,
    "---",
    "",
    `# ${TITLE}`,
    "",
    SUMMARY,
    "",
    "## Procedure",
    "",
    ...PROCEDURE,
    "",
    "## Rules",
    "",
    "- Reading the catalog does not authorize a purchase; only the owner's policy does.",
    "- Never pay a service, recipient or asset your policy does not list.",
    "- Never use floating point for amounts: `price` is a decimal string of atomic units.",
    "- A refused payment (paused, revoked, expired grant, or over a cap) must not be retried with another key.",
    "- Pay sign-first (the `exact` offer) by default; pay upfront (`sui-delegate`) only when you cannot, or after a `settlement_failed`.",
    "- Never sign a second payment for one challenge: after `503` (`…nothing_charged…` or `settlement_pending`) present the same signed payment again. The one exception: `409 payment_must_be_signed_again` asks for a new payment of the same challenge, which gets the kept answer.",
    "- Sign a gas station's transaction only if it is exactly your payment, you the sender and the sponsor the gas owner.",
    "- For many calls to one seller, pay from a session (the `sui-session` offer; MCP `how_to_pay` → `sessions`): open it once with a deposit from your grant, sign a voucher per call with a session key of its own, one call at a time, and close it with a final voucher when done.",
    `- Pay only on \`${network}\`: a challenge naming another network is not this gateway's.`,
    "",
    "## Routes",
    "",
    ...publicRoutes().filter((r) => !r.authenticated).map((r) => `- \`${r.method} ${origin}${r.path}\``),
    ""
  ].join("\n")
