import { Clock, Effect, Option } from "effect"
import { TransactionDataBuilder } from "@mysten/sui/transactions"
import { fromBase64, normalizeSuiAddress } from "@mysten/sui/utils"
import { Chain } from "@gateway/chain/Chain"
import { transactionSignedBy } from "@gateway/chain/SuiSignatures"
import { rollWindow, windowRemaining } from "@gateway/domain/chain/GrantWindow"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import { Conflict, Invalid } from "@gateway/domain/Errors"
import type { AskedCall, ChallengeClaims } from "@gateway/domain/payment/PaidCallDecision"
import type { PaymentClaim } from "@gateway/domain/payment/RecordedPayment"
import { checkSignedTerms, checkSimulatedPayment } from "@gateway/domain/payment/SignedPaymentCheck"
import { policyAllows } from "@gateway/domain/Policy"
import { type PaymentTransaction, readPaymentTransaction } from "@gateway/domain/verify/PaymentTransaction"
import type { Forwardable } from "../../catalog/Catalog.ts"
import { SignerRepo } from "../../signers/SignerRepo.ts"
import { Sponsorship } from "../../sponsorship/Sponsorship.ts"
import type { SignedCredential } from "../PaymentChallenge.ts"
import { SettlementNode } from "./SettlementNode.ts"

/** A presented sign-first payment, read from its bytes: what every later step names it by. */
export interface ReadPayment {
  readonly bytes: Uint8Array
  readonly digest: string
  readonly tx: PaymentTransaction
}

/** A payment verified as the scheme document asks, with what reserving it takes. */
export interface VerifiedPayment extends ReadPayment {
  readonly claim: PaymentClaim
  readonly sponsored: boolean
  readonly holds: ReadonlyArray<string>
  /** For a grant payment: what the grant has left on chain now (budget, then window). */
  readonly grantAvailable: bigint | undefined
}

/** The reason of a payment the chain executed before this presentation verified it. */
export const ALREADY_EXECUTED = "payment_already_executed"

const invalid = (reason: string) => new Invalid({ message: "The signed payment does not pay this challenge; nothing was charged", reason })

/** The presented bytes, read and their shape checked: INVALID, naming the part, when they are not a payment. */
export const readSignedPayment = (credential: SignedCredential, pkg: Parameters<typeof readPaymentTransaction>[1]) =>
  Effect.gen(function*() {
    const bytes = yield* Effect.try({ try: () => fromBase64(credential.transaction), catch: () => invalid("payload.transaction: not base64") })
    const read = readPaymentTransaction(bytes, pkg)
    if (!read.ok) return yield* invalid(`payload.${read.reason}`)
    const digest = yield* Effect.try({
      try: () => TransactionDataBuilder.getDigestFromBytes(bytes),
      catch: () => invalid("payload.transaction: not TransactionData")
    })
    return { bytes, digest, tx: read.value } satisfies ReadPayment
  })

/** What the grant has left now: its lifetime budget less what it spent, and at most what its window has left. */
const grantAvailable = (grant: { readonly sessionCap: bigint; readonly spent: bigint; readonly window: Parameters<typeof rollWindow>[0] }, nowMs: number) => {
  const lifetime = grant.sessionCap - grant.spent
  const window = windowRemaining(rollWindow(grant.window, BigInt(nowMs)), BigInt(nowMs))
  return window === undefined || window > lifetime ? lifetime : window
}

/**
 * The verification of the `exact` scheme on Sui, step by step, before anything is written: the terms the payload
 * echoes and the bytes' own (network, amount, asset, recipient, memo, expiry with the current epoch), the payer's
 * signature over exactly these bytes, gas paid by the payer or held for it by this gateway's sponsor, a simulation
 * that succeeds with `payTo`'s balance change equal to the price, and the transaction not executed before. A grant
 * payment must also come from a grant this gateway provisioned, out of its own pool, within the owner's policy.
 */
export const verifySignedPayment = Effect.fnUntraced(function*(
  read: ReadPayment,
  credential: SignedCredential,
  target: Forwardable,
  challenge: ChallengeClaims,
  asked: AskedCall,
  /** Presented before, and co-signed then (its seller failed): the sponsor's build is this payment's already. */
  cosignedBefore: boolean
) {
  const chain = yield* Chain
  const node = yield* SettlementNode
  const sponsorship = yield* Sponsorship
  const { bytes, digest, tx } = read

  const terms = checkSignedTerms(tx, credential.echoed, {
    asked,
    nonce: credential.nonce,
    network: target.entry.network,
    // A transaction naming a later epoch than the one remembered: the epoch may just have changed.
    currentEpoch: yield* node.epochNaming(tx.expiration._tag === "Epoch" ? tx.expiration.epoch : 0n)
  })
  if (!terms.ok) return yield* invalid(terms.reason)
  if (!(yield* Effect.promise(() => transactionSignedBy(bytes, credential.signature, tx.sender)))) {
    return yield* invalid("payload.signature: not the sender's signature over these transaction bytes")
  }
  const sponsor = Option.getOrUndefined(sponsorship.sponsorAddress)
  const sponsored = sponsor !== undefined && tx.gasOwner === normalizeSuiAddress(sponsor)
  if (!sponsored && tx.gasOwner !== tx.sender) return yield* invalid("payload.transaction.gasData.owner: neither the payer nor this gateway's sponsor")
  if (sponsored && !cosignedBefore) {
    // Only bytes the gas station built for this payer, whose gas the sponsor still holds, are co-signed later.
    const hold = yield* sponsorship.heldPayment(tx.sender, bytes)
    if (hold._tag === "Refused") return yield* invalid(`payload.transaction.gasData: ${hold.reason}`)
  }

  // Simulated and looked up together: a transaction executed already may simulate again (address balances, shared inputs only).
  const [simulated, executed] = yield* Effect.all([node.simulate(bytes), node.executed(digest)], { concurrency: 2 })
  if (Option.isSome(executed)) {
    return yield* new Conflict({ message: "This signed payment was executed already: it cannot pay a new call", reason: ALREADY_EXECUTED })
  }
  const proved = checkSimulatedPayment(simulated, tx, { pkg: chain.pkg, asked, nonce: credential.nonce })
  if (!proved.ok) return yield* invalid(proved.reason)

  let grantId: string | null = null
  let asset = asked.asset
  let available: bigint | undefined
  if (proved.grant !== undefined) {
    const paying = yield* (yield* SignerRepo).findPayingGrant(proved.grant.grantObjectId)
    const grant = Option.getOrUndefined(paying)
    if (grant === undefined || normalizeSuiAddress(grant.poolId) !== normalizeSuiAddress(proved.grant.poolId)) {
      return yield* invalid("grant: not one this gateway provisioned, or not paying from its own pool")
    }
    if (normalizeCoinType(grant.coinType) !== normalizeCoinType(asked.asset)) return yield* invalid(`grant: holds ${grant.coinType}, not ${asked.asset}`)
    const call = { serviceId: asked.serviceId, method: asked.method, path: asked.path, recipient: asked.payTo, asset: asked.asset }
    if (!policyAllows(grant.policyRules, call, normalizeCoinType)) return yield* invalid("policy: the owner's policy does not allow this call")
    const [onChain] = yield* chain.readGrants([proved.grant.grantObjectId])
    if (onChain === undefined) return yield* invalid("grant: not found on chain")
    grantId = grant.id
    asset = grant.coinType
    available = grantAvailable(onChain, yield* Clock.currentTimeMillis)
  }

  const claim: PaymentClaim = {
    digest,
    nonce: credential.nonce,
    serviceId: target.entry.id,
    revision: challenge.revision,
    serviceName: asked.name,
    asset,
    recipient: asked.payTo,
    grantObjectId: proved.grant?.grantObjectId ?? tx.sender,
    grantId,
    payer: tx.sender,
    amount: asked.price.toString(),
    refusal: null
  }
  // A transfer may draw on the payer's address balance, which no object names: one such payment per payer at a time.
  const holds = tx.shape._tag === "Transfer" ? [...tx.ownedObjectIds, `payer:${tx.sender}`] : tx.ownedObjectIds
  return { ...read, claim, sponsored, holds, grantAvailable: available } satisfies VerifiedPayment
})
