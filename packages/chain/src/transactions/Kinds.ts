import type { ClientWithCoreApi, CoreClient, SuiClientTypes } from "@mysten/sui/client"
import { coinWithBalance, Transaction, type TransactionObjectArgument } from "@mysten/sui/transactions"
import { toBase64 } from "@mysten/sui/utils"
import { windowArguments, type WindowTerms } from "@gateway/domain/chain/GrantWindow"
import {
  type FunctionName,
  nonceBytes,
  normalizeCoinType,
  pauseFunction,
  resumeFunction,
  type SpendAccountPackage,
  SUI_COIN_TYPE,
  target
} from "@gateway/domain/chain/SpendAccountModule"

/** A shared object as a transaction names it offline. */
export interface SharedRef {
  readonly objectId: string
  readonly initialSharedVersion: bigint
}

/** An owned object as a transaction names it offline. */
export interface OwnedRef {
  readonly objectId: string
  readonly version: bigint
  readonly digest: string
}

export interface PreparedKind {
  readonly moveTarget: string
  /** The unsigned `TransactionKind`, base64; the sender completes it with gas and signs it. */
  readonly txKindBytes: string
}

const kind = async (sender: string, moveTarget: string, compose: (tx: Transaction) => void, client?: ClientWithCoreApi): Promise<PreparedKind> => {
  const tx = new Transaction()
  tx.setSender(sender)
  compose(tx)
  return { moveTarget, txKindBytes: toBase64(await tx.build({ onlyTransactionKind: true, ...(client === undefined ? {} : { client }) })) }
}

const shared = (tx: Transaction, ref: SharedRef, mutable: boolean) =>
  tx.sharedObjectRef({ objectId: ref.objectId, initialSharedVersion: ref.initialSharedVersion.toString(), mutable })

/**
 * A single-use create: `grantId` (the gateway's `g_…`) goes on chain as the
 * nonce the pool remembers, and the create aborts once the Clock is past
 * `deadlineMs`. The pool is taken mutably, since it records the nonce; the
 * Registry immutably, for its package version.
 */
export const createPolicyGrant = (pkg: SpendAccountPackage, input: {
  readonly sender: string
  readonly grantId: string
  readonly deadlineMs: bigint
  readonly registry: SharedRef
  readonly pool: SharedRef
  readonly coinType: string
  readonly delegate: string
  readonly sessionCap: bigint
  readonly maxPerPayment: bigint
  readonly expiryMs: bigint
  readonly window: WindowTerms
  readonly recipients: ReadonlyArray<string>
  readonly policyIds: ReadonlyArray<bigint>
}) => {
  const moveTarget = target(pkg, "create_policy_grant")
  const window = windowArguments(input.window)
  return kind(input.sender, moveTarget, (tx) => {
    tx.moveCall({
      target: moveTarget,
      typeArguments: [normalizeCoinType(input.coinType)],
      arguments: [
        shared(tx, input.registry, false),
        shared(tx, input.pool, true),
        tx.pure.vector("u8", [...nonceBytes(input.grantId)]),
        tx.pure.u64(input.deadlineMs),
        tx.pure.address(input.delegate),
        tx.pure.u64(input.sessionCap),
        tx.pure.u64(input.maxPerPayment),
        tx.pure.u64(input.expiryMs),
        tx.pure.u8(window.kind),
        tx.pure.u64(window.periodMs),
        tx.pure.u64(window.limit),
        tx.pure.vector("address", [...input.recipients]),
        tx.pure.vector("u64", [...input.policyIds]),
        tx.object.clock()
      ]
    })
  })
}

interface OnGrant {
  readonly sender: string
  readonly registry: SharedRef
  readonly grant: SharedRef
}

const onGrant = (pkg: SpendAccountPackage, fn: FunctionName, input: OnGrant) => {
  const moveTarget = target(pkg, fn)
  return kind(input.sender, moveTarget, (tx) => {
    tx.moveCall({ target: moveTarget, arguments: [shared(tx, input.registry, false), shared(tx, input.grant, true)] })
  })
}

export const revokeGrant = (pkg: SpendAccountPackage, input: OnGrant) => onGrant(pkg, "revoke_grant", input)

/** The pause or resume function of a grant kind; a kind the module does not define builds nothing rather than another kind's call. */
const ofKind = (fn: FunctionName | undefined, kind: number) =>
  fn === undefined ? Promise.reject(new Error(`grant kind ${kind} is not one the module defines`)) : Promise.resolve(fn)

export const pauseGrant = (pkg: SpendAccountPackage, input: OnGrant & { readonly kind: number }) =>
  ofKind(pauseFunction(input.kind), input.kind).then((fn) => onGrant(pkg, fn, input))

export const resumeGrant = (pkg: SpendAccountPackage, input: OnGrant & { readonly kind: number }) =>
  ofKind(resumeFunction(input.kind), input.kind).then((fn) => onGrant(pkg, fn, input))

/** What the owner holds of a coin type: its coins (with their balances) and its address balance. */
export interface OwnerFunds {
  readonly coins: ReadonlyArray<OwnedRef & { readonly balance: bigint }>
  readonly addressBalance: bigint
}

/**
 * The owner's funds as `coinWithBalance`'s resolution reads them
 * (`@mysten/sui` transactions/intents/CoinWithBalance.ts `resolveCoinBalance`
 * calls only `core.getBalance` and `core.listCoins`), answered from what was
 * read beforehand, so the kind still builds offline.
 */
const fundsView = (owner: string, coinType: string, funds: OwnerFunds): ClientWithCoreApi => {
  const coinBalance = funds.coins.reduce((sum, c) => sum + c.balance, 0n)
  const core: Pick<CoreClient, "getBalance" | "listCoins"> = {
    getBalance: () =>
      Promise.resolve({
        balance: {
          coinType,
          balance: String(coinBalance + funds.addressBalance),
          coinBalance: String(coinBalance),
          addressBalance: String(funds.addressBalance)
        }
      } satisfies SuiClientTypes.GetBalanceResponse),
    listCoins: () =>
      Promise.resolve({
        objects: funds.coins.map((c) => ({
          objectId: c.objectId,
          version: c.version.toString(),
          digest: c.digest,
          owner: { $kind: "AddressOwner", AddressOwner: owner },
          type: `0x2::coin::Coin<${coinType}>`,
          balance: String(c.balance)
        })),
        hasNextPage: false,
        cursor: null
      } satisfies SuiClientTypes.ListCoinsResponse)
  }
  // The resolution touches nothing else of the client; a whole CoreClient here would be a node.
  return { core } as unknown as ClientWithCoreApi
}

/**
 * Funds the owner's spend account: `create_pool` (under the package's shared
 * Registry, taken mutably: the pool's id is claimed from it) when there is
 * none yet, else `deposit`. Given the owner's `funds`, the deposit is the
 * SDK's `coinWithBalance`, which takes it from the owner's coins and address
 * balance alike (SUI from the gas coin when the address balance alone does
 * not cover it; a `FundsWithdrawal` redeemed with `0x2::coin::redeem_funds`
 * otherwise). Without them, SUI is split from the gas coin and other assets
 * from the named `coins`, merged.
 */
export const fundPool = (pkg: SpendAccountPackage, input: {
  readonly sender: string
  readonly coinType: string
  readonly amount: bigint
  readonly pool: SharedRef | undefined
  /** The package's Registry as a shared ref; `create_pool` names it. */
  readonly registry: SharedRef
  readonly coins: ReadonlyArray<OwnedRef>
  readonly funds?: OwnerFunds
}) => {
  const moveTarget = target(pkg, input.pool === undefined ? "create_pool" : "deposit")
  const coinType = normalizeCoinType(input.coinType)
  return kind(input.sender, moveTarget, (tx) => {
    let coin: TransactionObjectArgument
    if (input.funds !== undefined) {
      coin = tx.add(coinWithBalance({ type: coinType, balance: input.amount }))
    } else {
      let source: TransactionObjectArgument = tx.gas
      if (coinType !== normalizeCoinType(SUI_COIN_TYPE)) {
        const [first, ...rest] = input.coins.map((c) =>
          tx.objectRef({ objectId: c.objectId, version: c.version.toString(), digest: c.digest })
        )
        if (first === undefined) throw new Error(`no ${coinType} coins to fund the pool with`)
        if (rest.length > 0) tx.mergeCoins(first, rest)
        source = first
      }
      const [split] = tx.splitCoins(source, [tx.pure.u64(input.amount)])
      if (split === undefined) throw new Error("splitCoins returned nothing")
      coin = split
    }
    tx.moveCall({
      target: moveTarget,
      typeArguments: [coinType],
      arguments: input.pool === undefined
        ? [shared(tx, input.registry, true), coin]
        : [shared(tx, input.registry, false), shared(tx, input.pool, true), coin]
    })
  }, input.funds === undefined ? undefined : fundsView(input.sender, coinType, input.funds))
}

export const pay = (pkg: SpendAccountPackage, input: {
  readonly sender: string
  readonly registry: SharedRef
  readonly grant: SharedRef
  readonly pool: SharedRef
  readonly coinType: string
  readonly amount: bigint
  readonly recipient: string
  readonly memo: Uint8Array
}) => {
  const moveTarget = target(pkg, "pay")
  return kind(input.sender, moveTarget, (tx) => {
    tx.moveCall({
      target: moveTarget,
      typeArguments: [normalizeCoinType(input.coinType)],
      arguments: [
        shared(tx, input.registry, false),
        shared(tx, input.grant, true),
        shared(tx, input.pool, true),
        tx.pure.u64(input.amount),
        tx.pure.address(input.recipient),
        tx.pure.vector("u8", [...input.memo]),
        tx.object.clock()
      ]
    })
  })
}

/**
 * Takes `amount` out of the owner's pool and sends it to the owner: `withdraw`
 * returns the coin to the transaction, which transfers it.
 */
export const withdraw = (pkg: SpendAccountPackage, input: {
  readonly sender: string
  readonly registry: SharedRef
  readonly pool: SharedRef
  readonly coinType: string
  readonly amount: bigint
}) => {
  const moveTarget = target(pkg, "withdraw")
  return kind(input.sender, moveTarget, (tx) => {
    const [coin] = tx.moveCall({
      target: moveTarget,
      typeArguments: [normalizeCoinType(input.coinType)],
      arguments: [shared(tx, input.registry, false), shared(tx, input.pool, true), tx.pure.u64(input.amount)]
    })
    if (coin === undefined) throw new Error("withdraw returned nothing")
    tx.transferObjects([coin], input.sender)
  })
}
