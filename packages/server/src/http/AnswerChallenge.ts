import type { IncomingMessage, ServerResponse } from "node:http"
import { Clock, Effect } from "effect"
import { AppConfig } from "../Config.ts"
import { ServiceReadCache } from "../catalog/ServiceReadCache.ts"
import { BatchedLimits } from "../limits/BatchedLimits.ts"
import { ChallengeTemplates } from "../paidCalls/ChallengeTemplates.ts"
import { challengeBucket, challengeQuota } from "../paidCalls/HandlePaidCall.ts"
import { clientAddress } from "./ClientAddress.ts"
import { recordRequestUnsafe } from "../observability/HttpMetrics.ts"
import { countPaidCallUnsafe } from "../observability/PaidCallMetrics.ts"

/**
 * `/v1/pay/{serviceId}` written exactly as the app routes it, with at most a query of plain URL characters:
 * anything else (a trailing slash, other case, escapes in the path, a fragment) is the app's to route.
 */
/** The paid-call route's pattern, the label its requests are counted under. */
const PAID_CALL_ROUTE = "/v1/pay/:serviceId"

const PAID_CALL = /^\/v1\/pay\/(svc_[0-9a-z]{26})(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*)?$/

/** Says it carries no body: any body is the app's to read or refuse. */
const bodiless = (request: IncomingMessage) =>
  request.headers["transfer-encoding"] === undefined && (request.headers["content-length"] === undefined || request.headers["content-length"] === "0")

/** What only the app answers: a credential (even one that will not decode may be meant as a payment) or a NUL in the URL (INVALID). */
const forTheApp = (request: IncomingMessage, url: string) =>
  request.headers["payment-signature"] !== undefined || request.headers.authorization !== undefined || /%00/i.test(url)

/**
 * The Node server's answer to a paid call without a credential (GatewayNodeServer), or false to leave the
 * request to the app. It answers only what the app would answer with a 402, from the template the app made
 * when it last challenged a call to that service's current terms (ChallengeTemplates): a service that changed
 * since, or is not live, has none, so the app routes it. The call must use the service's method, without a
 * body or a credential, and its client must be within the per-client challenge limit, counted here as the app
 * counts it; a client at the limit is the app's to refuse (429 with Retry-After). The answer is the app's
 * bytes: the template's body and headers, `application/json`. It gets no access-log line.
 */
export const answerChallenge = Effect.gen(function*() {
  const config = yield* AppConfig
  const reads = yield* ServiceReadCache
  const templates = yield* ChallengeTemplates
  const limits = yield* BatchedLimits
  const clock = yield* Clock.Clock
  const context = yield* Effect.context<never>()
  const quota = challengeQuota(config)
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const url = request.url ?? ""
    const serviceId = PAID_CALL.exec(url)?.[1]
    const entry = serviceId === undefined ? undefined : reads.liveTerms(serviceId)?.entry
    const nowMs = clock.currentTimeMillisUnsafe()
    const template = entry === undefined ? undefined : templates.kept(entry, nowMs)
    if (template === undefined || request.method !== template.entry.method || !bodiless(request) || forTheApp(request, url)) return false
    const forwarded = request.headers["x-forwarded-for"]
    // Repeated headers are one list to the app (effect's Headers.fromInput).
    const client = clientAddress(config.trustedProxies, request.socket.remoteAddress, Array.isArray(forwarded) ? forwarded.join(", ") : forwarded)
    if (limits.admitNow(challengeBucket(client), quota, nowMs) !== undefined) return false
    const { body, headers } = template.mint(nowMs)
    // The headers in the order effect writes them, so the answer is the app's to the byte (but for its Date).
    response.writeHead(402, { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }).end(body)
    // Counted as the app counts its own 402s (HttpMetrics.ts, HandlePaidCall.ts).
    recordRequestUnsafe(context, PAID_CALL_ROUTE, request.method ?? "GET", 402, (clock.currentTimeMillisUnsafe() - nowMs) / 1000)
    countPaidCallUnsafe(context, "challenge", "402")
    return true
  }
})
