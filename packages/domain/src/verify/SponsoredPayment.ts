import { normalizeSuiAddress } from "@mysten/sui/utils"
import type { PaymentCheck, PaymentTransaction } from "./PaymentTransaction.ts"

/** What the gas station's sponsor pays for a payment, and where the chain is now. */
export interface SponsoredPaymentRules {
  /** The payer the gas station built the transaction for: its sender. */
  readonly payer: string
  /** The sponsor's address: the gas owner. */
  readonly sponsor: string
  /** The chain's reference gas price: the sponsor never pays more per unit than it must. */
  readonly referenceGasPrice: bigint
  readonly gasBudgetMax: bigint
  /** The current epoch: the transaction must expire with it, so co-signed bytes never outlive it. */
  readonly epoch: bigint
}

const refuse = (reason: string): PaymentCheck<PaymentTransaction> => ({ ok: false, reason })

/**
 * The gas rules of a payment the sponsor co-signs, read from its bytes (`readPaymentTransaction`): sent by the
 * payer, gas owned by the sponsor and paid from exactly one of its coins (several would be merged into one by the
 * chain) at the reference gas price, a budget within the cap, and an expiration at the current epoch. What the
 * payment itself may do is `checkPaymentCommands`' rule, already applied when the bytes were read.
 */
export const checkSponsoredPayment = (tx: PaymentTransaction, rules: SponsoredPaymentRules): PaymentCheck<PaymentTransaction> => {
  if (tx.sender !== normalizeSuiAddress(rules.payer)) return refuse(`transaction.sender: expected ${rules.payer}, got ${tx.sender}`)
  if (tx.gasOwner !== normalizeSuiAddress(rules.sponsor)) return refuse("transaction.gasData.owner: not the gateway's sponsor")
  if (tx.gasPrice !== rules.referenceGasPrice) {
    return refuse(`transaction.gasData.price: ${tx.gasPrice} is not the reference gas price ${rules.referenceGasPrice}`)
  }
  if (tx.gasBudget <= 0n || tx.gasBudget > rules.gasBudgetMax) return refuse(`transaction.gasData.budget: ${tx.gasBudget} is not within the cap ${rules.gasBudgetMax}`)
  if (tx.gasPayment.length !== 1) return refuse(`transaction.gasData.payment: ${tx.gasPayment.length} coins; the sponsor pays from exactly one`)
  if (tx.expiration._tag !== "Epoch" || tx.expiration.epoch !== rules.epoch) {
    return refuse(`transaction.expiration: must be epoch ${rules.epoch} (the current epoch)`)
  }
  return { ok: true, value: tx }
}
