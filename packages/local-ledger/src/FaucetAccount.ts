import { bcs } from "@mysten/sui/bcs"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { blake2b } from "@noble/hashes/blake2.js"
import { genesisDigest } from "@gateway/chain/LocalNetwork"
import { deriveObjectId } from "@gateway/chain/ObjectIds"
import { normalizeCoinType, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { type LedgerObject, storageCost, withVersion } from "./LedgerObject.ts"
import type { SimulationRequest } from "./SimulationRequest.ts"

const seed = (label: string) => blake2b(new TextEncoder().encode(`local-ledger:${label}`), { dkLen: 32 })

/**
 * The address the faucet pays from, as a local network's genesis funds one:
 * its key is fixed, so a replayed journal meets the same address and the
 * same signed bytes.
 */
export const faucetKeypair = Ed25519Keypair.fromSecretKey(seed("faucet-key"))
export const FAUCET_ADDRESS = normalizeSuiAddress(faucetKeypair.toSuiAddress())

/** What the faucet holds at genesis: Sui's whole supply (10B SUI), so it never runs dry. */
const FAUCET_GENESIS_BALANCE = 10_000_000_000n * 1_000_000_000n

/** The faucet's SUI coin at genesis, next to the Clock and the Registry. */
export const faucetGenesisCoin = (pkg: { readonly originalId: string }): LedgerObject => {
  const previousTransaction = genesisDigest(pkg.originalId)
  const object = {
    id: deriveObjectId(seed("faucet-coin"), 0),
    owner: { _tag: "Address", address: FAUCET_ADDRESS } as const,
    createdBy: previousTransaction,
    previousTransaction,
    storageRebate: 0n,
    data: { _tag: "Coin", coinType: normalizeCoinType(SUI_COIN_TYPE), balance: FAUCET_GENESIS_BALANCE } as const
  }
  return withVersion({ ...object, storageRebate: storageCost({ ...object, version: 1n }, pkg.originalId) }, 1n, pkg.originalId)
}

/** The faucet's transfer as a wallet builds it: split `amount` off the gas coin and send it; gas chosen by the ledger's dry run. */
export const faucetTransfer = (recipient: string, amount: bigint): SimulationRequest => ({
  sender: FAUCET_ADDRESS,
  kind: {
    ProgrammableTransaction: {
      inputs: [{ Pure: { bytes: bcs.u64().serialize(amount).toBytes() } }, { Pure: { bytes: bcs.Address.serialize(normalizeSuiAddress(recipient)).toBytes() } }],
      commands: [
        { SplitCoins: { coin: { GasCoin: true }, amounts: [{ Input: 0 }] } },
        { TransferObjects: { objects: [{ NestedResult: [0, 0] }], address: { Input: 1 } } }
      ]
    }
  },
  expiration: { None: true },
  gasOwner: FAUCET_ADDRESS,
  payment: [],
  price: undefined,
  budget: undefined,
  gasSelection: true
})
