import { Context, Effect, Layer, Option, Redacted } from "effect"
import { decodeSuiPrivateKey, type Keypair } from "@mysten/sui/cryptography"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Secp256k1Keypair } from "@mysten/sui/keypairs/secp256k1"
import { Secp256r1Keypair } from "@mysten/sui/keypairs/secp256r1"
import { AppConfig } from "../Config.ts"
import { GatewayKeyRepo } from "../storage/GatewayKeyRepo.ts"

/** The store's name for local mode's own sponsor key (32 random bytes, an Ed25519 secret). */
const STORE_KEY_NAME = "sponsor_key"

const fromExport = (exported: Redacted.Redacted): Effect.Effect<Keypair> =>
  Effect.try({
    try: () => {
      const { scheme, secretKey } = decodeSuiPrivateKey(Redacted.value(exported))
      switch (scheme) {
        case "ED25519":
          return Ed25519Keypair.fromSecretKey(secretKey)
        case "Secp256k1":
          return Secp256k1Keypair.fromSecretKey(secretKey)
        case "Secp256r1":
          return Secp256r1Keypair.fromSecretKey(secretKey)
        default:
          throw new Error(`scheme ${scheme} cannot sponsor`)
      }
    },
    // The message never quotes the value: only that it is not a key.
    catch: () => new Error("SPONSOR_KEY must be a Sui private key export (suiprivkey1…) of an Ed25519, Secp256k1 or Secp256r1 key")
  }).pipe(Effect.orDie)

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
