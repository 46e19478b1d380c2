import { Effect } from "effect"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import type { RegisterService } from "@gateway/domain/CatalogEntry"
import { Invalid, UnsupportedAsset } from "@gateway/domain/Errors"
import { AppConfig } from "../Config.ts"
import { PublicUrl } from "../httpShared/PublicUrl.ts"
import { checkUpstreamUrl, hostPortOf } from "../upstream/UpstreamPolicy.ts"

/**
 * What registered terms must satisfy, at registration and at each edit: an
 * asset the gateway accepts, and the upstream rules (UpstreamPolicy), plus
 * never the gateway itself, even if allow-listed.
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
  if (reason !== undefined) return yield* new Invalid({ message: "The request is invalid", reason: `body.upstreamUrl: ${reason}` })
})
