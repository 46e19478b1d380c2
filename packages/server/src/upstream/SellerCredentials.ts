import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import { Context, Effect, Layer, Option, Redacted } from "effect"
import type { Unavailable } from "@gateway/domain/Errors"
import { AppConfig } from "../Config.ts"
import { GatewayKeyRepo } from "../storage/GatewayKeyRepo.ts"

/** The name of the store-kept key local mode seals under when CREDENTIALS_KEY is unset. */
const STORE_KEY_NAME = "upstream_credentials"
const VERSION = "v1"
const IV_BYTES = 12
const TAG_BYTES = 16

/**
 * What a sealed credential is bound to: it opens only for the service and
 * seller it was sealed for, so a ciphertext copied onto another service (or a
 * service that somehow changed hands) opens for nobody.
 */
const associatedData = (serviceId: string, owner: string) => Buffer.from(`sui-gateway upstream credential ${VERSION}\n${serviceId}\n${owner}`)

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")

/** The configured key: exactly 32 bytes, base64. */
const configuredKey = (key: Redacted.Redacted) => {
  const bytes = Buffer.from(Redacted.value(key), "base64")
  return bytes.length === 32
    ? Effect.succeed(new Uint8Array(bytes))
    : Effect.die(new Error("CREDENTIALS_KEY must be 32 bytes, base64-encoded (e.g. `openssl rand -base64 32`)"))
}

const sealUnder = (key: Uint8Array, serviceId: string, owner: string, secret: Redacted.Redacted<string>) => {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES })
  cipher.setAAD(associatedData(serviceId, owner))
  const ciphertext = Buffer.concat([cipher.update(Redacted.value(secret), "utf8"), cipher.final()])
  return [VERSION, b64(iv), b64(cipher.getAuthTag()), b64(ciphertext)].join(".")
}

const openUnder = (key: Uint8Array, serviceId: string, owner: string, sealed: string): Option.Option<Redacted.Redacted<string>> => {
  const [version, iv, tag, ciphertext, ...rest] = sealed.split(".")
  if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined || rest.length > 0) return Option.none()
  try {
    const ivBytes = Buffer.from(iv, "base64url")
    const tagBytes = Buffer.from(tag, "base64url")
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) return Option.none()
    const decipher = createDecipheriv("aes-256-gcm", key, ivBytes, { authTagLength: TAG_BYTES })
    decipher.setAAD(associatedData(serviceId, owner))
    decipher.setAuthTag(tagBytes)
    const plaintext = Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8")
    return Option.some(Redacted.make(plaintext))
  } catch {
    // A wrong key, a tampered text or one sealed for another service or seller: all the same to the caller.
    return Option.none()
  }
}

/**
 * Sellers' upstream secrets at rest: AES-256-GCM under the gateway's
 * credentials key, with the service id and the seller's address as associated
 * data. Live mode must configure the key (CREDENTIALS_KEY), so the store alone
 * never holds both a secret and what opens it; local mode, without one, keeps
 * a random key in the store. Rotation: the keys in CREDENTIALS_KEY_PREVIOUS
 * still open what they sealed, and `reseal` moves such a text to the current key.
 */
export class SellerCredentials extends Context.Service<SellerCredentials, {
  /** The sealed form kept in the store: `v1.<iv>.<tag>.<ciphertext>`, base64url, under the current key. */
  seal(serviceId: string, owner: string, secret: Redacted.Redacted<string>): string
  /** The secret, or none when the sealed text does not open for this service and seller under any of the keys. */
  open(serviceId: string, owner: string, sealed: string): Option.Option<Redacted.Redacted<string>>
  /** The text sealed anew under the current key when it opens only under a previous one; none otherwise. */
  reseal(serviceId: string, owner: string, sealed: string): Option.Option<string>
}>()("@gateway/server/SellerCredentials") {
  static readonly layer = Layer.effect(
    SellerCredentials,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const keys = yield* GatewayKeyRepo
      const key: Uint8Array = yield* Option.match(config.credentialsKey, {
        onSome: configuredKey,
        onNone: (): Effect.Effect<Uint8Array, Unavailable> =>
          Option.isSome(config.suiGrpcUrl)
            ? Effect.die(new Error("CREDENTIALS_KEY must be set when SUI_GRPC_URL is set: sellers' upstream secrets are encrypted under it"))
            : keys.getOrCreate(STORE_KEY_NAME)
      })
      const previous = yield* Effect.forEach(config.credentialsKeysPrevious, configuredKey)
      const underPrevious = (serviceId: string, owner: string, sealed: string) =>
        previous.reduce<Option.Option<Redacted.Redacted<string>>>(
          (found, old) => Option.orElse(found, () => openUnder(old, serviceId, owner, sealed)),
          Option.none()
        )

      return SellerCredentials.of({
        seal: (serviceId, owner, secret) => sealUnder(key, serviceId, owner, secret),
        open: (serviceId, owner, sealed) => Option.orElse(openUnder(key, serviceId, owner, sealed), () => underPrevious(serviceId, owner, sealed)),
        reseal: (serviceId, owner, sealed) =>
          Option.isSome(openUnder(key, serviceId, owner, sealed))
            ? Option.none()
            : Option.map(underPrevious(serviceId, owner, sealed), (secret) => sealUnder(key, serviceId, owner, secret))
      })
    })
  )
}
