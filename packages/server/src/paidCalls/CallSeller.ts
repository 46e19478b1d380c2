import { Effect, Option, Redacted } from "effect"
import { carriesBody } from "@gateway/domain/payment/PaidCallMethods"
import { AppConfig } from "../Config.ts"
import type { Forwardable } from "../catalog/Catalog.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { UpstreamForwarder, upstreamHeaders } from "../upstream/UpstreamForwarder.ts"
import { hostPortOf } from "../upstream/UpstreamPolicy.ts"
import type { PaidCallRequest } from "./PaidCallRequest.ts"

/**
 * Asks the seller once, as a paid call is forwarded in either flow: the caller's request to the service's upstream
 * address, with the seller's own credential and the paying transaction's digest, within the gateway's limits
 * (allowed hosts, never itself, answer size, timeout).
 */
export const callSeller = Effect.fnUntraced(function*(request: PaidCallRequest, target: Forwardable, digest: string) {
  const config = yield* AppConfig
  const publicUrl = yield* PublicUrl
  const upstream = yield* UpstreamForwarder
  const origin = new URL(publicUrl.origin)
  const limits = {
    allowHosts: config.upstreamAllowHosts,
    // As `host:port` with the scheme's default port filled in, as the forwarder compares them.
    ownHosts: [hostPortOf(origin)],
    maxBodyBytes: config.upstreamMaxBodyBytes,
    timeoutMs: config.upstreamTimeoutMs
  }
  // The seller's own credential, decrypted for this forward only; never logged.
  const secret = Option.getOrUndefined(Option.map(target.upstreamCredential, Redacted.value))
  return yield* upstream.call({
    url: `${target.upstreamUrl}${request.search}`,
    method: request.method,
    headers: upstreamHeaders({
      caller: request.headers,
      secret,
      clientAddress: request.clientAddress,
      proto: origin.protocol.replace(/:$/, ""),
      digest
    }),
    body: carriesBody(request.method) ? request.body : undefined
  }, limits)
})
