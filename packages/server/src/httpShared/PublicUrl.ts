import { Context, Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import { AppConfig } from "../Config.ts"

/**
 * The base URL callers reach this gateway at: `PUBLIC_URL` when set, else the
 * address the server actually listens on (so a test server on port 0 knows it).
 */
export class PublicUrl extends Context.Service<PublicUrl, { readonly origin: string; readonly host: string }>()(
  "@gateway/server/PublicUrl"
) {
  static readonly layer = Layer.effect(
    PublicUrl,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const server = yield* HttpServer.HttpServer
      const origin = Option.getOrElse(config.publicUrl, () => HttpServer.formatAddress(server.address))
        .replace(/\/+$/, "")
      return PublicUrl.of({ origin, host: new URL(origin).host })
    })
  )
}
