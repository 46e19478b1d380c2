import { Context, type Effect, type Option } from "effect"
import type { ChainTransaction } from "@gateway/domain/chain/ChainTransaction"
import type { GrantWindow, WindowTerms } from "@gateway/domain/chain/GrantWindow"
import type { SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import type { NotFinal, NotFound, Unavailable, UnsupportedAsset } from "@gateway/domain/Errors"
import type * as Kinds from "./transactions/Kinds.ts"

/** An owner's `Pool<T>` as the chain reports it. */
export interface PoolRef {
  readonly poolId: string
  readonly owner: string
  readonly coinType: string
  readonly balance: bigint
  readonly initialSharedVersion: bigint
}

export type PreparedKind = Kinds.PreparedKind

/** A payment `Session<T>` as the chain holds it now (spend_account.move, `open_session`). */
export interface SessionOnChain {
  readonly sessionId: string
  readonly initialSharedVersion: bigint
  readonly coinType: string
  readonly grantObjectId: string
  readonly poolId: string
  readonly owner: string
  readonly delegate: string
  readonly payee: string
  /** Besides the payee, the only one who may end it early with a final voucher. */
  readonly operator: string
  /** The Ed25519 public key its vouchers are signed with. */
  readonly voucherKey: Uint8Array
  readonly deposit: bigint
  readonly claimed: bigint
  readonly expiryMs: bigint
  /** When the owner's close request takes effect; 0 when none. */
  readonly closeAtMs: bigint
}

/** A Grant object as the chain holds it now: what `pay` checks besides the caps. */
export interface GrantOnChain {
  readonly grantObjectId: string
  /** The lifetime budget `pay` keeps `spent` within. */
  readonly sessionCap: bigint
  readonly spent: bigint
  /** As last written by `pay`: roll it to now (`rollWindow`) before reading `spent`. */
  readonly window: GrantWindow
  readonly recipients: ReadonlyArray<string>
  readonly paused: boolean
  readonly revoked: boolean
}

/**
 * What the gateway asks of the chain: find pools, build transaction kinds for
 * the owner or agent to sign, and fetch executed transactions for the
 * verifiers. Judging a transaction is not the chain's job.
 */
export class Chain extends Context.Service<Chain, {
  /** `sui:<network>`. */
  readonly network: string
  readonly pkg: SpendAccountPackage
  readonly health: Effect.Effect<void, Unavailable>
  findPool(owner: string, coinType: string): Effect.Effect<Option.Option<PoolRef>, Unavailable>
  /** The owner's pools of the supported assets and of any coin type in `also`. */
  listPools(owner: string, also?: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<PoolRef>, Unavailable>
  buildCreateGrant(input: {
    readonly sender: string
    readonly pool: PoolRef
    /** The gateway's grant id: the create's single-use nonce on chain. */
    readonly grantId: string
    /** After this Clock time the create aborts, so a prepared grant never goes live late. */
    readonly deadlineMs: bigint
    readonly delegate: string
    readonly sessionCap: bigint
    readonly maxPerPayment: bigint
    readonly expiryMs: bigint
    /** At most a limit per fixed period or calendar month, besides the lifetime cap; the module enforces it in `pay`. */
    readonly window: WindowTerms
    /** The only recipients `pay` may pay (at most MAX_RECIPIENTS); empty for any. */
    readonly recipients: ReadonlyArray<string>
    readonly policyIds: ReadonlyArray<bigint>
  }): Effect.Effect<PreparedKind, Unavailable>
  /** A grant id that names no shared Grant on chain is NOT_FOUND, as in every builder and `sharedVersion`. */
  buildRevoke(input: { readonly sender: string; readonly grantObjectId: string }): Effect.Effect<PreparedKind, Unavailable | NotFound>
  buildPause(input: { readonly sender: string; readonly grantObjectId: string; readonly kind: number }): Effect.Effect<PreparedKind, Unavailable | NotFound>
  buildResume(input: { readonly sender: string; readonly grantObjectId: string; readonly kind: number }): Effect.Effect<PreparedKind, Unavailable | NotFound>
  buildFundPool(input: { readonly sender: string; readonly coinType: string; readonly amount: bigint }): Effect.Effect<PreparedKind, Unavailable | UnsupportedAsset>
  buildPay(input: {
    readonly sender: string
    readonly grantObjectId: string
    readonly amount: bigint
    readonly recipient: string
    readonly memo: Uint8Array
  }): Effect.Effect<PreparedKind, Unavailable | NotFound>
  getTransaction(digest: string): Effect.Effect<ChainTransaction, NotFinal | Unavailable>
  /** The Grants at `grantObjectIds`, read in batches; an id that names no Grant on chain is left out. */
  readGrants(grantObjectIds: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<GrantOnChain>, Unavailable>
  /** The payment session at `sessionId`; none when no `Session` of this package is there (never was, or closed). */
  readSession(sessionId: string): Effect.Effect<Option.Option<SessionOnChain>, Unavailable>
  /**
   * The decimals of `coinType` as its on-chain coin metadata says (gRPC `GetCoinInfo`); none when the chain
   * holds no metadata for it. Registered prices are atomic units, so a seller's `decimals` must match this.
   */
  coinDecimals(coinType: string): Effect.Effect<Option.Option<number>, Unavailable>
  /** The initial shared version of a shared object, which offline builders need. */
  sharedVersion(objectId: string): Effect.Effect<bigint, Unavailable | NotFound>
}>()("@gateway/chain/Chain") {}
