import { Context, Effect, Layer } from "effect"
import { GatewayKeyRepo } from "../storage/GatewayKeyRepo.ts"
import { mppSecretOf } from "./PaymentChallenge.ts"

/** The gateway's key that seals challenge nonces, and the MPP secret derived from it, read once at start-up. */
export class PaymentChallengeKey extends Context.Service<PaymentChallengeKey, {
  readonly key: Uint8Array
  readonly mppSecret: string
}>()("@gateway/server/PaymentChallengeKey") {
  static readonly layer = Layer.effect(
    PaymentChallengeKey,
    Effect.map(Effect.flatMap(GatewayKeyRepo, (keys) => keys.getOrCreate("payment_challenge")), (key) =>
      PaymentChallengeKey.of({ key, mppSecret: mppSecretOf(key) }))
  )
}
