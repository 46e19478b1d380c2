import { ed25519 } from "@noble/curves/ed25519.js"
import { blake2b } from "@noble/hashes/blake2.js"
import { bcs } from "@mysten/sui/bcs"
import { Transaction, TransactionDataBuilder } from "@mysten/sui/transactions"
import { fromBase64, normalizeSuiAddress } from "@mysten/sui/utils"
import { voucherMessage } from "@gateway/domain/chain/SessionVoucher"
import { normalizeCoinType, type SpendAccountPackage, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import type { Execution } from "../../src/Execution.ts"
import { Rejection } from "../../src/execute/Admission.ts"
import { execute } from "../../src/Executor.ts"
import { localPackage } from "@gateway/chain/LocalNetwork"
import { deriveObjectId } from "@gateway/chain/ObjectIds"
import { genesisObjects, type LedgerObject, type ObjectData, storageCost, withVersion } from "../../src/LedgerObject.ts"

export const addr = (n: number) => normalizeSuiAddress(n.toString(16))
export const OWNER = addr(0xa11ce)
export const DELEGATE = addr(0xde1e)
export const STRANGER = addr(0x5157)
export const RECIPIENT = addr(0xcafe)
/** The sessions' operator: besides the payee (RECIPIENT), the only one who may `claim_and_close`. */
export const OPERATOR = addr(0xc105e)
/** Who published the package: the holder of its AdminCap. */
export const ADMIN = addr(0xad)
export const GAS_PRICE = 1000n

/**
 * The session keys of the vectors: the delegate's (every session's voucher
 * key) and another one, whose signatures no session accepts. Fixed, and
 * Ed25519 signatures are deterministic, so the generated Move tests embed
 * the same signature bytes a row's executor run computes.
 */
const VOUCHER_SECRET = new Uint8Array(32).fill(0x5e)
const OTHER_VOUCHER_SECRET = new Uint8Array(32).fill(0x07)
export const VOUCHER_KEY = ed25519.getPublicKey(VOUCHER_SECRET)
export type VoucherSigner = "session" | "other"

/** A voucher's signature over (session, cumulative), final or not, by the session's key or the other one. */
export const signVoucher = (signer: VoucherSigner, sessionId: string, cumulative: bigint, final: boolean): Uint8Array =>
  ed25519.sign(voucherMessage(sessionId, cumulative, final), signer === "session" ? VOUCHER_SECRET : OTHER_VOUCHER_SECRET)
export const GAS_BUDGET = 50_000_000n

/** The package as LocalLedger publishes it, and its genesis. */
export const PACKAGE: SpendAccountPackage = localPackage(normalizeSuiAddress("0x5e4d"))

export interface RunOptions {
  readonly budget?: bigint
  /** The gas coin; the sender's first SUI coin that covers the budget (or a fresh one) otherwise. */
  readonly gas?: LedgerObject
  /** The whole gas payment, when it is not one coin. */
  readonly payment?: ReadonlyArray<LedgerObject>
}

/**
 * A ledger state for `execute()` alone: objects by id and the Clock's time.
 * Transactions run against it and their effects are applied, as LocalLedger
 * commits them, so a vector can build its state from earlier calls.
 */
export class World {
  readonly objects = new Map<string, LedgerObject>()
  nowMs = 1_000n
  private minted = 0

  readonly pkg: SpendAccountPackage

  constructor(pkg: SpendAccountPackage = PACKAGE) {
    this.pkg = pkg
    for (const object of genesisObjects(pkg)) this.objects.set(object.id, object)
    this.put({ _tag: "AdminCap" }, ADMIN)
  }

  /** A fresh object owned by `owner`, as a faucet writes it: version 1, its storage cost as its rebate. */
  put(data: ObjectData, owner: string): LedgerObject {
    const previousTransaction = TransactionDataBuilder.getDigestFromBytes(blake2b(new TextEncoder().encode(`mint:${this.minted}`), { dkLen: 32 }))
    const id = deriveObjectId(blake2b(new TextEncoder().encode(`mint:${this.minted++}`), { dkLen: 32 }), 0)
    const base = { id, owner: { _tag: "Address", address: owner } as const, createdBy: previousTransaction, previousTransaction, storageRebate: 0n, data }
    const object = withVersion({ ...base, storageRebate: storageCost({ ...base, version: 1n }, this.pkg.originalId) }, 1n, this.pkg.originalId)
    this.objects.set(id, object)
    return object
  }

  coin(owner: string, balance: bigint, coinType: string = SUI_COIN_TYPE) {
    return this.put({ _tag: "Coin", coinType: normalizeCoinType(coinType), balance }, owner)
  }

  get(id: string): LedgerObject {
    const object = this.objects.get(normalizeSuiAddress(id))
    if (object === undefined) throw new Error(`no object ${id}`)
    return object
  }

  /** Rewrites an object in place (a state a vector starts from, such as a pool left at an older version). */
  edit(id: string, data: ObjectData) {
    const object = this.get(id)
    this.objects.set(object.id, withVersion({ ...object, data }, object.version, this.pkg.originalId))
  }

  /** The sender's SUI coins (for gas), newest first. */
  gasOf(owner: string) {
    return [...this.objects.values()].filter((o) =>
      o.owner._tag === "Address" && o.owner.address === owner && o.data._tag === "Coin" && o.data.coinType === normalizeCoinType(SUI_COIN_TYPE)
    )
  }

  /** The publisher's AdminCap. */
  adminCap(): LedgerObject {
    const cap = [...this.objects.values()].find((o) => o.data._tag === "AdminCap")
    if (cap === undefined) throw new Error("no AdminCap")
    return cap
  }

  /** The shared object as a transaction names it. */
  shared(id: string) {
    const object = this.get(id)
    if (object.owner._tag !== "Shared") throw new Error(`${id} is not shared`)
    return { objectId: object.id, initialSharedVersion: object.owner.initialSharedVersion }
  }

  /**
   * Completes a transaction kind with gas from `sender`'s first SUI coin (or
   * `options.gas`), executes it and applies what it did.
   */
  async run(
    sender: string,
    compose: Uint8Array | ((tx: Transaction) => void),
    options: RunOptions = {}
  ): Promise<Execution | Rejection> {
    const tx = compose instanceof Uint8Array ? Transaction.fromKind(compose) : new Transaction()
    if (!(compose instanceof Uint8Array)) compose(tx)
    const budget = options.budget ?? GAS_BUDGET
    // A payee's coins from the rows' payments and claims are too small for gas.
    const gas = options.gas ?? this.gasOf(sender).find((c) => c.data._tag === "Coin" && c.data.balance >= budget) ?? this.coin(sender, 10_000_000_000n)
    tx.setSender(sender)
    tx.setGasOwner(sender)
    tx.setGasPrice(GAS_PRICE)
    tx.setGasBudget(budget)
    tx.setGasPayment((options.payment ?? [gas]).map((coin) => ({ objectId: coin.id, version: coin.version.toString(), digest: coin.digest })))
    const bytes = await tx.build()
    const result = execute({
      pkg: this.pkg,
      data: bcs.TransactionData.parse(bytes),
      digest: TransactionDataBuilder.getDigestFromBytes(bytes),
      nowMs: this.nowMs,
      epoch: 0n,
      referenceGasPrice: GAS_PRICE,
      objects: this.objects
    })
    if (result instanceof Rejection) return result
    for (const change of result.changes) {
      if (change.after === undefined) this.objects.delete(change.id)
      else this.objects.set(change.id, change.after)
    }
    return result
  }

  /** `run`, for a kind the builders made. */
  runKind(sender: string, kind: { readonly txKindBytes: string }, options: RunOptions = {}) {
    return this.run(sender, fromBase64(kind.txKindBytes), options)
  }
}
