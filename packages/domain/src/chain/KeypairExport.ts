import { decodeSuiPrivateKey, type Keypair } from "@mysten/sui/cryptography"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Secp256k1Keypair } from "@mysten/sui/keypairs/secp256k1"
import { Secp256r1Keypair } from "@mysten/sui/keypairs/secp256r1"

/**
 * The keypair of a Sui private key export (`suiprivkey1…`) of an Ed25519,
 * Secp256k1 or Secp256r1 key; undefined for anything else. Callers say what
 * was expected without ever quoting the value.
 */
export const keypairFromExport = (exported: string): Keypair | undefined => {
  try {
    const { scheme, secretKey } = decodeSuiPrivateKey(exported)
    switch (scheme) {
      case "ED25519":
        return Ed25519Keypair.fromSecretKey(secretKey)
      case "Secp256k1":
        return Secp256k1Keypair.fromSecretKey(secretKey)
      case "Secp256r1":
        return Secp256r1Keypair.fromSecretKey(secretKey)
      default:
        return undefined
    }
  } catch {
    return undefined
  }
}
