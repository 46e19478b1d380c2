/// <reference lib="dom" />
import type { ClientWithCoreApi } from "@mysten/sui/client"
import { Transaction } from "@mysten/sui/transactions"
import { normalizeStructTag, toBase64 } from "@mysten/sui/utils"
import { MODULE, Structs } from "@gateway/domain/chain/SpendAccountModule"

/** A grant as the chain holds it now: what was spent against its budget, and whether it is paused or revoked. */
export interface GrantOnChain {
  readonly spent: bigint
  readonly sessionCap: bigint
  readonly maxPerPayment: bigint
  readonly expiryMs: bigint
  readonly paused: boolean
  readonly revoked: boolean
}

export const readGrant = async (client: ClientWithCoreApi, objectId: string): Promise<GrantOnChain> => {
  const { object } = await client.core.getObject({ objectId, include: { content: true } })
  const grant = Structs.Grant.parse(object.content)
  return {
    spent: BigInt(grant.spent),
    sessionCap: BigInt(grant.session_cap),
    maxPerPayment: BigInt(grant.max_per_payment),
    expiryMs: BigInt(grant.expiry_ms),
    paused: grant.paused,
    revoked: grant.revoked
  }
}

/** A coin's decimals from its on-chain metadata; null when the chain has none (amounts are then typed in atomic units). */
export const coinDecimals = (() => {
  const known = new Map<string, Promise<number | null>>()
  return (client: ClientWithCoreApi, coinType: string): Promise<number | null> => {
    const key = normalizeStructTag(coinType)
    const cached = known.get(key)
    if (cached !== undefined) return cached
    const lookup = client.core.getCoinMetadata({ coinType: key }).then(
      ({ coinMetadata }) => coinMetadata?.decimals ?? null,
      () => null
    )
    known.set(key, lookup)
    return lookup
  }
})()

/**
 * The owner's `withdraw<T>(registry, pool, amount)` as a kind, the returned
 * coin sent to the owner: the API prepares funding only, so the page builds
 * this call itself, at the package the pool's type names (the original id;
 * equal to the published-at id until the package is upgraded).
 */
export const withdrawKind = async (client: ClientWithCoreApi, input: { pool: string; registry: string; coinType: string; amount: bigint; owner: string }) => {
  const { object } = await client.core.getObject({ objectId: input.pool })
  const packageId = object.type.split("::")[0] ?? ""
  const transaction = new Transaction()
  const [coin] = transaction.moveCall({
    target: `${packageId}::${MODULE}::withdraw`,
    typeArguments: [input.coinType],
    arguments: [transaction.object(input.registry), transaction.object(input.pool), transaction.pure.u64(input.amount)]
  })
  if (coin === undefined) throw new Error("withdraw returned nothing")
  transaction.transferObjects([coin], input.owner)
  return toBase64(await transaction.build({ client, onlyTransactionKind: true }))
}
