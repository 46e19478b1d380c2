import { blake2b } from "@noble/hashes/blake2.js"
import { toBase58 } from "@mysten/sui/utils"
import type { SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import { deriveObjectId } from "./ObjectIds.ts"

/**
 * The local network's ids, which the local ledger and a gateway on it agree on
 * without asking each other: the ledger publishes `spend_account` at genesis,
 * at an id it is given, and its Registry's id follows from that id.
 */

/** The package id a local ledger publishes at by default: any fixed address serves, since nothing is compiled. */
export const LOCAL_ORIGINAL_ID = "0x5e4d000000000000000000000000000000000000000000000000000000000001"

const GENESIS_PREFIX = "genesis:"

const genesisDigestBytes = (originalId: string) => blake2b(new TextEncoder().encode(`${GENESIS_PREFIX}${originalId}`), { dkLen: 32 })

/** The digest the local ledger's genesis names as the transaction that wrote its first objects. */
export const genesisDigest = (originalId: string) => toBase58(genesisDigestBytes(originalId))

/** The id of the `Registry` the package's `init` shares on a local ledger: the genesis transaction's first created object. */
export const genesisRegistryId = (originalId: string) => deriveObjectId(genesisDigestBytes(originalId), 0)

/** The package as a local ledger publishes it: never upgraded, its Registry made at genesis. */
export const localPackage = (originalId: string): SpendAccountPackage => ({
  originalId,
  publishedAt: originalId,
  registryId: genesisRegistryId(originalId)
})
