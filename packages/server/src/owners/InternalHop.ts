import { createHmac } from "node:crypto"
import { Clock, Effect, Option, Redacted } from "effect"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { AppConfig } from "../Config.ts"
import { sameSecret } from "../secrets/SameSecret.ts"
import type { Caller } from "./Caller.ts"
import { unauthenticated } from "./SessionErrors.ts"
import { SessionRepo } from "./SessionRepo.ts"

/** The MAC a trusted internal hop sends: HMAC-SHA256 over `<address>.<ms>`, hex. */
export const internalHopMac = (secret: string, address: string, ms: number) =>
  createHmac("sha256", secret).update(`${address}.${ms}`).digest("hex")

/** The caller a trusted internal hop names: `<address>.<ms>.<mac>`, within the window and used once. */
export const verifyInternalHop = Effect.fnUntraced(function*(credential: string) {
  const config = yield* AppConfig
  const secret = Option.getOrUndefined(Option.map(config.internalHopSecret, Redacted.value))
  if (secret === undefined) return yield* unauthenticated("internal_hop_disabled")
  const match = /^(0x[0-9a-f]{64})\.(\d{1,16})\.([0-9a-f]{64})$/.exec(credential)
  if (match === null) return yield* unauthenticated("malformed_internal_hop")
  const [, address = "", msText = "", mac = ""] = match
  const ms = Number(msText)
  if (!sameSecret(mac, internalHopMac(secret, address, ms))) return yield* unauthenticated("bad_internal_hop_mac")
  const at = new Date(yield* Clock.currentTimeMillis)
  if (Math.abs(at.getTime() - ms) > config.internalHopWindowMs) {
    return yield* unauthenticated("internal_hop_outside_window")
  }
  const fresh = yield* (yield* SessionRepo).useInternalHop(mac, new Date(ms + config.internalHopWindowMs), at)
  if (!fresh) return yield* unauthenticated("internal_hop_replayed")
  const caller: Caller = { address: SuiAddress.make(address), session: Option.none() }
  return caller
})
