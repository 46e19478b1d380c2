import { Effect } from "effect"
import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import { Catalog } from "../catalog/Catalog.ts"
import { escapeMarkdown } from "./EscapeMarkdown.ts"
import { PROCEDURE } from "./PaymentProcedure.ts"

/** A service's page for agents, `/v1/services/{id}.md`: its terms and how to pay, generated from its entry. */
export const serviceMarkdown = (entry: CatalogEntry) =>
  [
    `# ${escapeMarkdown(entry.name)}`,
    "",
    `> ${escapeMarkdown(entry.description)}`,
    "",
    "## Terms",
    "",
    `| field | value |`,
    `|---|---|`,
    `| id | \`${entry.id}\` |`,
    `| method | \`${entry.method}\` |`,
    `| path | \`${entry.path}\` |`,
    `| resourceUrl | ${entry.resourceUrl} |`,
    `| price | \`${entry.price}\` atomic units (decimals ${entry.decimals}) |`,
    `| asset | \`${entry.asset}\` |`,
    `| payTo | \`${entry.payTo}\` |`,
    `| network | \`${entry.network}\` |`,
    `| rail | \`${entry.rail}\` |`,
    `| dialects | ${entry.dialects.map((d) => `\`${d}\``).join(", ")} |`,
    `| mimeType | ${escapeMarkdown(entry.mimeType)} |`,
    `| settlement | \`${entry.settlement}\` |`,
    `| activeRevision | ${entry.activeRevision} |`,
    "",
    "The JSON at `/v1/services/" + entry.id + "` is authoritative; this page is generated from it.",
    "",
    "## How to pay",
    "",
    ...PROCEDURE,
    "",
    "## Example",
    "",
    "```http",
    `${entry.method} ${entry.resourceUrl}`,
    "",
    "HTTP/1.1 402 Payment Required",
    "PAYMENT-REQUIRED: <base64 JSON: accepts = [exact (sign-first), sui-delegate (upfront)]>",
    `WWW-Authenticate: Payment id="…", method="sui", intent="charge", request="…"`,
    "",
    `${entry.method} ${entry.resourceUrl}`,
    "PAYMENT-SIGNATURE: <base64 JSON { x402Version: 2, accepted: <the exact offer>, payload: { signature, transaction } }>",
    "",
    "HTTP/1.1 200 OK",
    "PAYMENT-RESPONSE: <base64 JSON { success: true, transaction: <digest>, … }>",
    "```",
    ""
  ].join("\n")

/** The Markdown page of a live service. */
export const serviceDocument = Effect.fn("AgentDocuments.service")(function*(id: string) {
  return serviceMarkdown(yield* (yield* Catalog).get(id))
})
