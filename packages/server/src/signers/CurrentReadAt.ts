import { Clock, Effect } from "effect"
import type { ReadAt } from "@gateway/domain/signer/SignerView"
import { AppConfig } from "../Config.ts"

/** Now, with the configured pending window: the moment a use case reads signers at. */
export const currentReadAt: Effect.Effect<ReadAt, never, AppConfig> = Effect.gen(function*() {
  const config = yield* AppConfig
  const nowMs = yield* Clock.currentTimeMillis
  return { nowMs, pendingTtlMs: config.pendingGrantTtlMs }
})
