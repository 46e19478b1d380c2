import type { SuiNetwork } from "./SuiDelegateOffer.ts"

/**
 * What a paid call settled. A payment is consumed once, under the key
 * `sui:<network>:<digest>` (the transaction is unique on its network), which
 * both receipts name.
 */
export interface Settlement {
  readonly network: SuiNetwork
  readonly digest: string
  readonly nonce: string
  readonly payer: string
  readonly amount: string
  readonly answeredAt: Date
}

export const consumedProofKey = (network: SuiNetwork, digest: string) => `${network}:${digest}`

/** x402's `SettleResponse` (the `PAYMENT-RESPONSE` header, base64 JSON). */
export const settleResponse = (s: Settlement) => ({
  success: true,
  transaction: s.digest,
  network: s.network,
  payer: s.payer,
  // What was paid, under the challenge's revision, even if the service's price changed since.
  amount: s.amount,
  extra: { proofKey: consumedProofKey(s.network, s.digest), nonce: s.nonce }
})

/** MPP's receipt (the `Payment-Receipt` header, base64url JSON): `reference` is the digest, `externalId` the proof key. */
export const mppReceipt = (s: Settlement) => ({
  method: "sui",
  reference: s.digest,
  externalId: consumedProofKey(s.network, s.digest),
  status: "success" as const,
  timestamp: s.answeredAt.toISOString()
})
