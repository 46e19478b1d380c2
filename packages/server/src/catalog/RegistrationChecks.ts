import { Effect, Option } from "effect"
import { Chain } from "@gateway/chain/Chain"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import type { RegisterService, RegisteredTerms } from "@gateway/domain/CatalogEntry"
import { Invalid, UnsupportedAsset } from "@gateway/domain/Errors"
import { AppConfig } from "../Config.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { checkUpstreamUrl, FORBIDDEN_ADDRESS_REASON, hostPortOf } from "../upstream/UpstreamPolicy.ts"

/**
 * What registered terms must satisfy, at registration and at each edit: an
 * asset the gateway accepts, and the upstream rules (UpstreamPolicy), plus
 * never the gateway itself, even if allow-listed; and `decimals` as the
 * coin's metadata on chain says (taken from it when omitted), since a price
 * in atomic units means nothing with the wrong decimals. Returns the terms
 * with `decimals` filled in.
 */
export const checkRegistration = Effect.fnUntraced(function*(body: RegisterService) {
  const config = yield* AppConfig
  const supported = new Set(config.supportedAssets.map(normalizeCoinType))
  if (!supported.has(normalizeCoinType(body.asset))) {
    return yield* new UnsupportedAsset({ message: `The gateway does not accept ${body.asset}`, reason: `body.asset: supported are ${[...supported].join(", ")}` })
  }
  const gateway = hostPortOf(new URL((yield* PublicUrl).origin))
  const verdict = yield* checkUpstreamUrl(body.upstreamUrl, config.upstreamAllowHosts)
  const reason = !verdict.ok ? verdict.reason : hostPortOf(new URL(body.upstreamUrl)) === gateway ? "upstream_url_is_the_gateway_itself" : undefined
  if (reason !== undefined) return yield* new Invalid({ message: upstreamRefusal(reason, body.upstreamUrl), reason: `body.upstreamUrl: ${reason}` })
  return { ...body, decimals: yield* checkDecimals(body) } satisfies RegisteredTerms
})

/** The coin's decimals: the chain's metadata when it has some, else the seller's (a coin without metadata cannot be checked). */
const checkDecimals = Effect.fnUntraced(function*(body: RegisterService) {
  const onChain = yield* (yield* Chain).coinDecimals(body.asset)
  if (Option.isNone(onChain)) {
    if (body.decimals !== undefined) return body.decimals
    return yield* new Invalid({
      message: `The chain holds no coin metadata for ${body.asset}, so its decimals cannot be looked up; send body.decimals`,
      reason: "body.decimals: required_when_the_coin_has_no_metadata"
    })
  }
  if (body.decimals !== undefined && body.decimals !== onChain.value) {
    return yield* new Invalid({
      message: `body.decimals must be ${onChain.value} for ${body.asset}, as its coin metadata on chain says (or leave it out to take it from there)`,
      reason: `body.decimals: expected_${onChain.value}_from_coin_metadata`
    })
  }
  return onChain.value
})

/** What the seller (or, for a private address, the operator) can do about a refused upstream. */
const upstreamRefusal = (reason: string, url: string): string => {
  if (reason === FORBIDDEN_ADDRESS_REASON) {
    const hostPort = hostPortOf(new URL(url))
    return `body.upstreamUrl points at a loopback, private or reserved address; for local development the operator allows it with UPSTREAM_ALLOW_HOSTS=${hostPort} (exact host:port, comma-separated), otherwise use a public address`
  }
  if (reason === "upstream_host_does_not_resolve") return "body.upstreamUrl names a host that does not resolve; check the host name"
  if (reason === "upstream_url_is_the_gateway_itself") return "body.upstreamUrl points at this gateway itself; use the seller's own server"
  return `body.upstreamUrl is not a usable http(s) URL (${reason})`
}
