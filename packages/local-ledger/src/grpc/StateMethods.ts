import { GrpcTypes } from "@mysten/sui/grpc"
import { normalizeStructTag, normalizeSuiAddress } from "@mysten/sui/utils"
import { Effect } from "effect"
import type { Unavailable } from "@gateway/domain/Errors"
import { normalizeCoinType, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import type { LedgerObject } from "../LedgerObject.ts"
import { LocalLedger } from "../LocalLedger.ts"
import { GrpcFailure } from "./GrpcFailure.ts"
import { type GrpcMethod, unary } from "./GrpcMethod.ts"
import { objectProto } from "./LedgerProto.ts"
import { applyReadMask } from "./ReadMask.ts"
import { decodePageToken, encodePageToken, MAX_PAGE_BYTES, ownedObjectsPageSize } from "./PageToken.ts"

/** A full node's page sizes: 50 unless asked, at most 1000. */
const pageSize = (asked: number | undefined) => Math.min(asked === undefined || asked <= 0 ? 50 : asked, 1000)

const invalid = (message: string) => new GrpcFailure({ code: "INVALID_ARGUMENT", message })

const ownerOf = (owner: string | undefined) => (owner === undefined ? Effect.fail(invalid("missing owner")) : Effect.succeed(owner))

const typeArgument = (type: string) =>
  Effect.try({ try: () => normalizeCoinType(type), catch: () => invalid(`${type} is not a Move type`) })

/** Page tokens are the last id returned, so a page resumes after it even if objects came or went. */
const pageAfter = <A>(items: ReadonlyArray<A>, key: (item: A) => string, token: Uint8Array | undefined, size: number) => {
  const after = token === undefined ? undefined : new TextDecoder().decode(token)
  const rest = after === undefined ? items : items.filter((item) => key(item) > after)
  const page = rest.slice(0, size)
  const last = page.at(-1)
  return { page, nextPageToken: rest.length > size && last !== undefined ? new TextEncoder().encode(key(last)) : undefined }
}

const balancesOf = (objects: ReadonlyArray<LedgerObject>) => {
  const byType = new Map<string, bigint>()
  for (const o of objects) if (o.data._tag === "Coin") byType.set(o.data.coinType, (byType.get(o.data.coinType) ?? 0n) + o.data.balance)
  return byType
}

/** A balance as a node reports it (sui-rpc-api `get_balance`): coins and the address balance apart, `balance` their sum. */
const balanceProto = (coinType: string, coins: bigint, address: bigint): GrpcTypes.Balance => ({
  coinType,
  balance: coins + address,
  coinBalance: coins,
  addressBalance: address
})

/** Every coin type the owner holds in coins or in its address balance, with both amounts. */
const holdings = (owner: string) =>
  Effect.gen(function*() {
    const ledger = yield* LocalLedger
    const coins = balancesOf(yield* ledger.ownedObjects(owner))
    const address = yield* ledger.addressBalances(owner)
    return { coins, address, types: [...new Set([...coins.keys(), ...address.keys()])].sort((a, b) => a.localeCompare(b)) }
  })

/** A type filter as a node applies it: a full type matches exactly; one without type arguments matches every instance. */
const matchesType = (filter: string | undefined, type: string | undefined) => {
  if (filter === undefined) return true
  if (type === undefined) return false
  return filter.includes("<") ? normalizeStructTag(filter) === type : type === filter || type.startsWith(`${normalizeStructTag(filter)}<`)
}

export const stateMethods: ReadonlyArray<GrpcMethod> = [
  unary(GrpcTypes.StateService, "GetBalance", GrpcTypes.GetBalanceRequest, GrpcTypes.GetBalanceResponse, (request) =>
    Effect.gen(function*() {
      const owner = yield* ownerOf(request.owner)
      const coinType = yield* typeArgument(request.coinType ?? SUI_COIN_TYPE)
      const { coins, address } = yield* holdings(owner)
      return { balance: balanceProto(coinType, coins.get(coinType) ?? 0n, address.get(coinType) ?? 0n) }
    })),
  unary(GrpcTypes.StateService, "ListBalances", GrpcTypes.ListBalancesRequest, GrpcTypes.ListBalancesResponse, (request) =>
    Effect.gen(function*() {
      const owner = yield* ownerOf(request.owner)
      const { coins, address, types } = yield* holdings(owner)
      const { page, nextPageToken } = pageAfter(types, (type) => type, request.pageToken, pageSize(request.pageSize))
      return {
        balances: page.map((type) => balanceProto(type, coins.get(type) ?? 0n, address.get(type) ?? 0n)),
        ...(nextPageToken === undefined ? {} : { nextPageToken })
      }
    })),
  unary(GrpcTypes.StateService, "ListOwnedObjects", GrpcTypes.ListOwnedObjectsRequest, GrpcTypes.ListOwnedObjectsResponse, (request) =>
    Effect.gen(function*() {
      const owner = normalizeSuiAddress(yield* ownerOf(request.owner))
      const ledger = yield* LocalLedger
      const nowMs = BigInt(yield* ledger.now)
      const filter = request.objectType === undefined ? undefined : (yield* typeArgument(request.objectType))
      // A token resumes at the object it names, so a page is whole even if objects came or went since.
      const from = request.pageToken === undefined ? undefined : yield* decodePageToken(request.pageToken, { owner, objectType: filter })
      const objects = (yield* ledger.ownedObjects(owner))
        .filter((o) => from === undefined || o.id >= from)
        .map((o) => objectProto(o, ledger.config.pkg.originalId, nowMs))
        .filter((o) => matchesType(filter, o.objectType))
      const size = ownedObjectsPageSize(request.pageSize)
      const page: Array<GrpcTypes.Object> = []
      let bytes = 0
      for (const object of objects) {
        if (page.length >= size || bytes >= MAX_PAGE_BYTES) break
        // A full node's default read mask for ListOwnedObjects.
        const masked = applyReadMask(object, request.readMask, ["object_id", "version", "object_type"])
        bytes += GrpcTypes.Object.toBinary(masked).length
        page.push(masked)
      }
      const next = objects[page.length]?.objectId
      return {
        objects: page,
        ...(next === undefined ? {} : { nextPageToken: encodePageToken({ owner, objectType: filter, next }) })
      }
    })),
  unary(GrpcTypes.StateService, "GetCoinInfo", GrpcTypes.GetCoinInfoRequest, GrpcTypes.GetCoinInfoResponse, (request) =>
    Effect.gen(function*(): Effect.fn.Return<GrpcTypes.GetCoinInfoResponse, GrpcFailure | Unavailable, LocalLedger> {
      const coinType = yield* typeArgument(request.coinType ?? "")
      // SUI's, and a minted type's if a mint gave it some; a type minted without is a coin never published, as a
      // node finds no metadata for a type without a CoinMetadata or Currency object. No id: no such object exists here.
      const metadata = yield* (yield* LocalLedger).coinMetadata(coinType)
      if (metadata === undefined) return yield* new GrpcFailure({ code: "NOT_FOUND", message: `no coin metadata for ${coinType}` })
      return { coinType, metadata: { ...metadata } }
    }))
]
