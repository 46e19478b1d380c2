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
    `- Pay only on \`${network}\`: a challenge naming another network is not this gateway's.`,
    "",
    "## Routes",
    "",
    ...publicRoutes.filter((r) => !r.authenticated).map((r) => `- \`${r.method} ${origin}${r.path}\``),
    ""
  ].join("\n")
