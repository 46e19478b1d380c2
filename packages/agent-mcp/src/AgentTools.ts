import { decodePaymentRequiredHeader } from "@x402/core/http"
import { Effect, Schema } from "effect"
import { type DeliveryFailed, type GatewayUnreachable, makeAgent, type PaymentRefused, type SessionClose } from "@gateway/client/AgentSdk"
import type { LedgerUnreachable } from "@gateway/client/OwnerWallet"
import { CatalogEntry, CatalogList } from "@gateway/domain/CatalogEntry"
import { Structs } from "@gateway/domain/chain/SpendAccountModule"
import type { AgentEnvironment } from "./AgentEnvironment.ts"

/** A tool call that did not succeed; `message` is what the MCP client reads. */
export class ToolFailed extends Schema.TaggedError<ToolFailed>()("ToolFailed", { message: Schema.String }) {}

const Bounded = Schema.String.pipe(Schema.check(Schema.isMaxLength(200)))

/**
 * The arguments of the tools this server shares with the gateway's `/mcp`
 * (search_services, get_service_terms): the same names, meanings and JSON
 * Schema on both (docs/decisions.md, "One MCP vocabulary"), held equal by test/Vocabulary.test.ts.
 */
export const SearchArguments = {
  query: Schema.optionalKey(Bounded).annotate({ description: "Words to find in services' names and descriptions; omit to list every live service" }),
  limit: Schema.optionalKey(Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 200 })))).annotate({
    description: "Services per page, 1 to 200 (default 50)"
  }),
  cursor: Schema.optionalKey(Bounded).annotate({ description: "The nextCursor of the previous page, for the page after it" })
}

export const TermsArguments = {
  serviceId: Bounded.annotate({ description: "The service's id, as search_services lists it" })
}

export const PayAndCallArguments = {
  url: Schema.String.annotate({ description: "The service's resourceUrl, with any query string." }),
  method: Schema.optionalKey(Schema.String.annotate({ description: "The HTTP method; the service's method, GET unless it says otherwise." })),
  body: Schema.optionalKey(Schema.String.annotate({ description: "The request body, sent as is." })),
  contentType: Schema.optionalKey(Schema.String.annotate({ description: "The request body's content type." })),
  payment: Schema.optionalKey(
    Schema.Literals(["sign-first", "upfront", "session"]).annotate({
      description:
        "How to pay: sign-first (the default: one payment per call, charged only when the seller answers), upfront, or session (for many calls to one seller: one deposit on chain, then a voucher per call signed off chain; call close_sessions when done)."
    })
  )
}

type SearchInput = Schema.Struct<typeof SearchArguments>["Type"]
type TermsInput = Schema.Struct<typeof TermsArguments>["Type"]
type PayAndCallInput = Schema.Struct<typeof PayAndCallArguments>["Type"]

const failed = (message: string) => new ToolFailed({ message })

const getJson = <S extends Schema.Constraint>(url: string, schema: S) =>
  Effect.gen(function*() {
    const response = yield* Effect.tryPromise({
      try: () => fetch(url, { headers: { accept: "application/json" } }),
      catch: (e) => failed(`the gateway cannot be reached: ${String(e)}`)
    })
    const text = yield* Effect.promise(() => response.text())
    if (!response.ok) return yield* Effect.fail(failed(`the gateway answered ${response.status}: ${text}`))
    return yield* Schema.decodeUnknownEffect(Schema.fromJsonString(schema))(text).pipe(
      Effect.mapError((e) => failed(`the gateway's answer is not understood: ${e.message}`))
    )
  })

/** Why a paid call failed, as the MCP client reads it. */
const paidCallFailed = (e: PaymentRefused | DeliveryFailed | GatewayUnreachable | LedgerUnreachable) => {
  switch (e._tag) {
    case "PaymentRefused":
      return failed(`not paid: ${e.reason}${e.digest === undefined ? "" : ` (transaction ${e.digest})`}`)
    case "DeliveryFailed":
      // The payment stands: calling again with the same request presents it rather than paying twice.
      return failed(`payment ${e.digest} was presented but the answer did not arrive (${e.reason}); call again with the same request to present the same payment`)
    case "GatewayUnreachable":
      return failed(`the gateway cannot be reached: ${e.reason}`)
    case "LedgerUnreachable":
      return failed(`the chain cannot be reached to pay: ${e.reason}`)
  }
}

/** What closing the agent's sessions came to, in amounts as decimal strings. */
const closesView = (closes: ReadonlyArray<SessionClose>) => ({
  sessions: closes.map((c) =>
    c._tag === "Closed"
      ? { sessionId: c.sessionId, closed: true, digest: c.digest, claimed: c.claimed.toString(), returned: c.returned.toString() }
      : { sessionId: c.sessionId, closed: false, reason: c.reason }
  )
})

/**
 * The five tools of the agent's MCP server. One agent serves every call, so a
 * challenge is never paid twice and a paid call that did not get its answer is
 * presented again rather than paid again. It pays sign-first (the SDK's
 * default): the gateway executes the signed payment only once the seller has
 * answered, with its gas station paying the gas; or, when asked, from payment
 * sessions, which this one agent keeps across calls until `close_sessions`.
 */
export const makeAgentTools = (environment: AgentEnvironment) => {
  const { manifest, client } = environment
  const agent = makeAgent(environment)

  const searchServices = (input: SearchInput) => {
    const params = new URLSearchParams()
    if (input.query !== undefined) params.set("q", input.query)
    if (input.limit !== undefined) params.set("limit", String(input.limit))
    if (input.cursor !== undefined) params.set("cursor", input.cursor)
    return getJson(`${manifest.apiBaseUrl}/v1/services?${params}`, CatalogList)
  }

  /** The service's catalog terms, and the 402 its resource answers an unpaid call with. */
  const serviceTerms = (input: TermsInput) =>
    Effect.gen(function*() {
      const service = yield* getJson(`${manifest.apiBaseUrl}/v1/services/${encodeURIComponent(input.serviceId)}`, CatalogEntry)
      const challenge = yield* Effect.tryPromise({
        try: () => fetch(service.resourceUrl, { method: service.method }),
        catch: (e) => failed(`the service cannot be reached: ${String(e)}`)
      })
      const header = challenge.headers.get("payment-required")
      const paymentRequired = header === null ? null : yield* Effect.try({
        try: () => decodePaymentRequiredHeader(header),
        catch: () => failed("the service's PAYMENT-REQUIRED header is not understood")
      })
      return { service, challengeStatus: challenge.status, paymentRequired }
    })

  const payAndCall = (input: PayAndCallInput) =>
    Effect.gen(function*() {
      const paid = yield* agent.fetchPaid(input.url, {
        method: input.method ?? "GET",
        ...(input.body === undefined ? {} : { body: input.body }),
        ...(input.contentType === undefined ? {} : { headers: { "content-type": input.contentType } })
      }, input.payment === undefined ? {} : { payment: input.payment }).pipe(Effect.mapError(paidCallFailed))
      const body = yield* Effect.promise(() => paid.response.text())
      return {
        status: paid.response.status,
        contentType: paid.response.headers.get("content-type"),
        body,
        digest: paid.digest ?? null,
        // Sign-first: a seller's failure (503) charges nothing, and calling again re-presents the same signed payment.
        charged: paid.charged,
        // From a session: nothing went on chain for this call; the voucher's session and cumulative amount.
        session: paid.session === undefined ? null : { sessionId: paid.session.sessionId, cumulativeAmount: paid.session.cumulative.toString() }
      }
    })

  /** Closes every session the agent opened: the seller is paid what the answered calls used, the rest goes back to the pool. */
  const closeSessions = () => Effect.map(agent.closeSessions(), closesView)

  /** Each grant of the manifest as the chain holds it now: its cap, what was spent and what remains. */
  const grantBudget = () =>
    Effect.forEach(manifest.grants, (grant) =>
      Effect.tryPromise({
        try: async () => {
          const { object } = await client.core.getObject({ objectId: grant.grantObjectId, include: { content: true } })
          const onChain = Structs.Grant.parse(object.content)
          const sessionCap = BigInt(onChain.session_cap)
          const spent = BigInt(onChain.spent)
          return {
            grantId: grant.grantId,
            grantObjectId: grant.grantObjectId,
            coinType: grant.coinType,
            sessionCap: sessionCap.toString(),
            spent: spent.toString(),
            remaining: (sessionCap > spent ? sessionCap - spent : 0n).toString(),
            maxPerPayment: BigInt(onChain.max_per_payment).toString(),
            expiryMs: BigInt(onChain.expiry_ms).toString(),
            paused: onChain.paused,
            revoked: onChain.revoked
          }
        },
        catch: (e) => failed(`grant ${grant.grantObjectId} cannot be read from the chain: ${String(e)}`)
      })).pipe(Effect.map((grants) => ({ grants })))

  return { searchServices, serviceTerms, payAndCall, grantBudget, closeSessions }
}
