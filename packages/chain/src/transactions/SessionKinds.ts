import { Transaction } from "@mysten/sui/transactions"
import { toBase64 } from "@mysten/sui/utils"
import { normalizeCoinType, type SpendAccountPackage, target } from "@gateway/domain/chain/SpendAccountModule"
import type { PreparedKind, SharedRef } from "./Kinds.ts"

/**
 * The session calls of `spend_account` (spend_account.move, "Sessions"), each
 * twice: a composer that adds the call to a given `Transaction` (to batch it
 * with others in one PTB), and a builder of the `PreparedKind` of the call
 * alone. Voucher keys are Ed25519 public keys (32 bytes); signatures are over
 * `voucherMessage` (`@gateway/domain/chain/SessionVoucher`). The Registry is
 * taken immutably, for its package version; a session by value (close) is a
 * mutable shared input, as Sui requires of a shared object the call deletes.
 */

const shared = (tx: Transaction, ref: SharedRef, mutable: boolean) =>
  tx.sharedObjectRef({ objectId: ref.objectId, initialSharedVersion: ref.initialSharedVersion.toString(), mutable })

const kind = async (sender: string, moveTarget: string, compose: (tx: Transaction) => void): Promise<PreparedKind> => {
  const tx = new Transaction()
  tx.setSender(sender)
  compose(tx)
  return { moveTarget, txKindBytes: toBase64(await tx.build({ onlyTransactionKind: true })) }
}

interface OnSession {
  readonly registry: SharedRef
  readonly session: SharedRef
  readonly coinType: string
}

interface OnGrantAndPool {
  readonly registry: SharedRef
  readonly grant: SharedRef
  readonly pool: SharedRef
  readonly coinType: string
}

export interface OpenSessionInput extends OnGrantAndPool {
  readonly payee: string
  /** Besides the payee, the only one who may end the session early with the delegate's final voucher (`claim_and_close`). */
  readonly operator: string
  readonly deposit: bigint
  readonly expiryMs: bigint
  /** The Ed25519 public key (32 bytes) the session's vouchers will be signed with. */
  readonly voucherKey: Uint8Array
}

export interface TopUpInput extends OnGrantAndPool {
  readonly session: SharedRef
  readonly amount: bigint
}

export interface ClaimInput extends OnSession {
  readonly cumulative: bigint
  /** The voucher's Ed25519 signature (64 bytes) over `voucherMessage(session, cumulative)`. */
  readonly signature: Uint8Array
}

export interface CloseSessionInput extends OnGrantAndPool {
  readonly session: SharedRef
}

export interface ClaimAndCloseInput extends CloseSessionInput {
  readonly cumulative: bigint
  /** The final voucher's signature: over `voucherMessage(session, cumulative, true)`. */
  readonly signature: Uint8Array
}

export interface RequestCloseInput extends OnSession {
  readonly grant: SharedRef
}

/** `open_session`: the delegate moves `deposit` from the pool into a new shared session for `payee`, closable early by `operator`. */
export const openSessionCall = (tx: Transaction, pkg: SpendAccountPackage, input: OpenSessionInput): void => {
  tx.moveCall({
    target: target(pkg, "open_session"),
    typeArguments: [normalizeCoinType(input.coinType)],
    arguments: [
      shared(tx, input.registry, false),
      shared(tx, input.grant, true),
      shared(tx, input.pool, true),
      tx.pure.address(input.payee),
      tx.pure.address(input.operator),
      tx.pure.u64(input.deposit),
      tx.pure.u64(input.expiryMs),
      tx.pure.vector("u8", [...input.voucherKey]),
      tx.object.clock()
    ]
  })
}

/** `top_up`: the delegate adds `amount` from the pool to the session's deposit. */
export const topUpCall = (tx: Transaction, pkg: SpendAccountPackage, input: TopUpInput): void => {
  tx.moveCall({
    target: target(pkg, "top_up"),
    typeArguments: [normalizeCoinType(input.coinType)],
    arguments: [
      shared(tx, input.registry, false),
      shared(tx, input.grant, true),
      shared(tx, input.pool, true),
      shared(tx, input.session, true),
      tx.pure.u64(input.amount),
      tx.object.clock()
    ]
  })
}

/** `claim`: anyone pays the payee up to `cumulative` in all, against the delegate's voucher. */
export const claimCall = (tx: Transaction, pkg: SpendAccountPackage, input: ClaimInput): void => {
  tx.moveCall({
    target: target(pkg, "claim"),
    typeArguments: [normalizeCoinType(input.coinType)],
    arguments: [
      shared(tx, input.registry, false),
      shared(tx, input.session, true),
      tx.pure.u64(input.cumulative),
      tx.pure.vector("u8", [...input.signature]),
      tx.object.clock()
    ]
  })
}

/** `close_session`: the payee at any time, anyone after the claim deadline; the rest goes back to the pool. */
export const closeSessionCall = (tx: Transaction, pkg: SpendAccountPackage, input: CloseSessionInput): void => {
  tx.moveCall({
    target: target(pkg, "close_session"),
    typeArguments: [normalizeCoinType(input.coinType)],
    arguments: [
      shared(tx, input.registry, false),
      shared(tx, input.session, true),
      shared(tx, input.grant, true),
      shared(tx, input.pool, true),
      tx.object.clock()
    ]
  })
}

/** `claim_and_close`: the payee or the session's operator, with the delegate's final voucher: pays up to it, then closes. */
export const claimAndCloseCall = (tx: Transaction, pkg: SpendAccountPackage, input: ClaimAndCloseInput): void => {
  tx.moveCall({
    target: target(pkg, "claim_and_close"),
    typeArguments: [normalizeCoinType(input.coinType)],
    arguments: [
      shared(tx, input.registry, false),
      shared(tx, input.session, true),
      shared(tx, input.grant, true),
      shared(tx, input.pool, true),
      tx.pure.u64(input.cumulative),
      tx.pure.vector("u8", [...input.signature]),
      tx.object.clock()
    ]
  })
}

/** `request_close`: the grant's owner, once the grant is paused or revoked, ends claims a grace from now. */
export const requestCloseCall = (tx: Transaction, pkg: SpendAccountPackage, input: RequestCloseInput): void => {
  tx.moveCall({
    target: target(pkg, "request_close"),
    typeArguments: [normalizeCoinType(input.coinType)],
    arguments: [shared(tx, input.registry, false), shared(tx, input.session, true), shared(tx, input.grant, false), tx.object.clock()]
  })
}

interface Sender {
  readonly sender: string
}

export const openSession = (pkg: SpendAccountPackage, input: OpenSessionInput & Sender) =>
  kind(input.sender, target(pkg, "open_session"), (tx) => openSessionCall(tx, pkg, input))

export const topUp = (pkg: SpendAccountPackage, input: TopUpInput & Sender) => kind(input.sender, target(pkg, "top_up"), (tx) => topUpCall(tx, pkg, input))

/**
 * Many claims in one PTB (each session named once: a session with several
 * vouchers needs only its highest). A claim at or below what was claimed is a
 * no-op on chain, so a stale one does not fail the batch.
 */
export const claimSessions = (pkg: SpendAccountPackage, input: Sender & {
  readonly registry: SharedRef
  readonly claims: ReadonlyArray<Omit<ClaimInput, "registry">>
}) => {
  if (input.claims.length === 0) return Promise.reject(new Error("no claims to make"))
  return kind(input.sender, target(pkg, "claim"), (tx) => {
    for (const claim of input.claims) claimCall(tx, pkg, { ...claim, registry: input.registry })
  })
}

export const closeSession = (pkg: SpendAccountPackage, input: CloseSessionInput & Sender) =>
  kind(input.sender, target(pkg, "close_session"), (tx) => closeSessionCall(tx, pkg, input))

export const claimAndClose = (pkg: SpendAccountPackage, input: ClaimAndCloseInput & Sender) =>
  kind(input.sender, target(pkg, "claim_and_close"), (tx) => claimAndCloseCall(tx, pkg, input))

export const requestClose = (pkg: SpendAccountPackage, input: RequestCloseInput & Sender) =>
  kind(input.sender, target(pkg, "request_close"), (tx) => requestCloseCall(tx, pkg, input))
