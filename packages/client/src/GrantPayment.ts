import type { ClientWithCoreApi } from "@mysten/sui/client"
import { Effect } from "effect"
import * as Kinds from "@gateway/chain/transactions/Kinds"
import type { SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import type { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import { type ManifestGrant, vouchedByGrant, type VouchableOffer } from "@gateway/domain/payment/OfferVouching"
import { memoOf } from "@gateway/domain/verify/PaymentVerifier"
import { readGrantState } from "./GrantState.ts"
import { PaymentRefused } from "./PaymentRefused.ts"

/** What a grant payment reads of an offer, upfront or sign-first alike: whom it pays, in what, and the memo. */
export type PaidOffer = Pick<VouchableOffer, "payTo" | "asset"> & { readonly extra: { readonly nonce: string } }

const refuse = (reason: string) => Effect.fail(new PaymentRefused({ reason }))

/** The package the manifest names: `pay` is called at its published-at id. */
export const packageOf = (manifest: ConnectionManifest): SpendAccountPackage => ({
  originalId: manifest.packageId,
  publishedAt: manifest.publishedAt,
  registryId: manifest.registryId
})

/** Registry refs by client and id: its initial shared version never changes, so each agent reads it once. */
const registryRefs = new WeakMap<ClientWithCoreApi, Map<string, Kinds.SharedRef>>()

/** The package's shared Registry as a `pay` names it, read from the chain the first time. */
export const registryRef = (client: ClientWithCoreApi, registryId: string) =>
  Effect.gen(function*() {
    const known = registryRefs.get(client)?.get(registryId)
    if (known !== undefined) return known
    const { object } = yield* Effect.tryPromise({
      try: () => client.core.getObject({ objectId: registryId }),
      catch: (error) => new PaymentRefused({ reason: `the package's Registry ${registryId} could not be read: ${String(error)}` })
    })
    if (object.owner.$kind !== "Shared") return yield* refuse(`the object ${registryId} is not a shared Registry`)
    const ref = { objectId: registryId, initialSharedVersion: BigInt(object.owner.Shared.initialSharedVersion) }
    registryRefs.set(client, new Map(registryRefs.get(client)).set(registryId, ref))
    return ref
  })

/**
 * Refuses, before anything is signed, a payment the grant on chain would
 * refuse: a recipient it does not list, or more than its window has left now.
 * Read fresh for every payment: the window counts payments made elsewhere too.
 */
export const vouchOnChain = (input: {
  readonly client: ClientWithCoreApi
  readonly pkg: SpendAccountPackage
  readonly grant: ManifestGrant
  readonly offer: PaidOffer
  readonly amount: bigint
}) =>
  Effect.gen(function*() {
    const { state, chainNowMs } = yield* Effect.tryPromise({
      try: () => readGrantState(input.client, { packageId: input.pkg.originalId, grantObjectId: input.grant.grantObjectId }),
      catch: (error) => new PaymentRefused({ reason: `the grant ${input.grant.grantObjectId} could not be read from the chain: ${String(error)}` })
    })
    // The chain's Clock rolls the window in `pay`; a payer's own clock may be off by more than a window's edge.
    const vouching = vouchedByGrant(state, { amount: input.amount, recipient: input.offer.payTo, asset: input.offer.asset }, chainNowMs)
    if (vouching._tag === "Refused") return yield* refuse(vouching.reason)
  })

/**
 * The unsigned `TransactionKind` (base64) of one payment through the grant:
 * `<publishedAt>::spend_account::pay<T>(registry, grant, pool, amount, recipient,
 * memo = UTF-8 of the nonce, clock)`, built offline but for the Registry's first read.
 */
export const grantPayKind = (input: {
  readonly pkg: SpendAccountPackage
  readonly sender: string
  readonly client: ClientWithCoreApi
  readonly grant: ManifestGrant
  readonly offer: PaidOffer
  readonly amount: bigint
}) =>
  Effect.gen(function*() {
    const { grant, offer } = input
    const registry = yield* registryRef(input.client, input.pkg.registryId)
    const kind = yield* Effect.tryPromise({
      try: () =>
        Kinds.pay(input.pkg, {
          sender: input.sender,
          registry,
          grant: { objectId: grant.grantObjectId, initialSharedVersion: BigInt(grant.grantInitialSharedVersion) },
          pool: { objectId: grant.pool, initialSharedVersion: BigInt(grant.poolInitialSharedVersion) },
          coinType: grant.coinType,
          amount: input.amount,
          recipient: offer.payTo,
          memo: memoOf(offer.extra.nonce)
        }),
      catch: (error) => new PaymentRefused({ reason: `the payment could not be built: ${String(error)}` })
    })
    return kind.txKindBytes
  })
