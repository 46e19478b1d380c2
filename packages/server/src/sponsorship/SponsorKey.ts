import { Context, Effect, Layer, Option, Redacted } from "effect"
import type { Keypair } from "@mysten/sui/cryptography"
import { keypairFromExport } from "@gateway/domain/chain/KeypairExport"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { AppConfig } from "../Config.ts"
import { GatewayKeyRepo } from "../storage/GatewayKeyRepo.ts"

/** The store's name for local mode's own sponsor key (32 random bytes, an Ed25519 secret). */
const STORE_KEY_NAME = "sponsor_key"

// The message never quotes the value: only that it is not a key.
const fromExport = (exported: Redacted.Redacted): Effect.Effect<Keypair> =>
  Effect.fromNullishOr(keypairFromExport(Redacted.value(exported))).pipe(
    Effect.mapError(() => new Error("SPONSOR_KEY must be a Sui private key export (suiprivkey1…) of an Ed25519, Secp256k1 or Secp256r1 key")),
    Effect.orDie
  )

/**
 * The key that pays gas for owners' own calls: SPONSOR_KEY, or in local mode
 * one the gateway makes and keeps in the store (every replica shares it); in
 * live mode without SPONSOR_KEY, none, and nothing is sponsored. Never
 * returned or logged: only its address leaves this service.
 */
export class SponsorKey extends Context.Service<SponsorKey, Option.Option<Keypair>>()("@gateway/server/SponsorKey") {
  static readonly layer = Layer.effect(
    SponsorKey,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const keys = yield* GatewayKeyRepo
      if (Option.isSome(config.sponsorKey)) return Option.some(yield* fromExport(config.sponsorKey.value))
      if (Option.isSome(config.suiGrpcUrl)) return Option.none()
      const secret = yield* Effect.orDie(keys.getOrCreate(STORE_KEY_NAME))
      return Option.some<Keypair>(Ed25519Keypair.fromSecretKey(secret))
    })
  )
}
