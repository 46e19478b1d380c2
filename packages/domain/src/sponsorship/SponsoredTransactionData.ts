import { bcs } from "@mysten/sui/bcs"

/** A gas coin at the version the transaction names. */
export interface GasCoinRef {
  readonly objectId: string
  readonly version: string
  readonly digest: string
}

export interface SponsoredGas {
  readonly sender: string
  readonly sponsor: string
  /** The one coin reserved for this build; none for a simulation, which runs on a coin the node makes up. */
  readonly coin: GasCoinRef | undefined
  readonly price: bigint
  readonly budget: bigint
  /** The epoch the transaction expires after: the current one, so co-signed bytes never outlive it. */
  readonly epoch: bigint
}

/**
 * The transaction data the sponsor builds around an owner's kind, byte for
 * byte: every replica that builds from the same inputs gets the same digest,
 * and the sponsor co-signs nothing else. Throws when the kind is not BCS.
 */
export const sponsoredTransactionData = (kindBytes: Uint8Array, gas: SponsoredGas): Uint8Array =>
  bcs.TransactionData.serialize({
    V1: {
      kind: bcs.TransactionKind.parse(kindBytes),
      sender: gas.sender,
      gasData: {
        payment: gas.coin === undefined ? [] : [{ objectId: gas.coin.objectId, version: gas.coin.version, digest: gas.coin.digest }],
        owner: gas.sponsor,
        price: gas.price,
        budget: gas.budget
      },
      expiration: { Epoch: gas.epoch.toString() }
    }
  }).toBytes()
