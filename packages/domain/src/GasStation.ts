import { Schema } from "effect"
import { described, documented, Example } from "./Doc.ts"
import { SuiAddress } from "./SuiAddress.ts"

const Base64 = Schema.String.pipe(
  Schema.check(Schema.isMaxLength(16_384), Schema.isPattern(/^[A-Za-z0-9+/]+={0,2}$/u, { expected: "base64" }))
)

/**
 * What a payer sends the gas station (an `exact` offer's `extra.gasStation`): the `TransactionKind` of one
 * payment of an offer (a grant's `spend_account::pay`, or a plain transfer of the asset), and who sends it.
 */
export const GasStationRequest = Schema.Struct({
  /** Base64 BCS `TransactionKind`: the payment's commands alone, no gas. */
  transactionKind: documented(Base64, "The payment's transaction kind (no gas), base64.", Example.base64),
  /** The payer: the transaction's sender, whose signature the gateway will verify. */
  sender: described(SuiAddress, "The agent that will sign the sponsored transaction.")
})
export type GasStationRequest = typeof GasStationRequest.Type

/**
 * The whole transaction around the payment, the gateway's sponsor as gas owner: sign exactly `transaction` and
 * present it with the `exact` payment. The sponsor co-signs it only when the gateway settles it, once.
 */
export const GasStationResponse = Schema.Struct({
  /** Base64 BCS `TransactionData`. */
  transaction: documented(Base64, "The whole transaction with the sponsor's gas, base64: sign it and present it with the payment.", Example.base64),
  sender: described(SuiAddress, "The agent that must sign it."),
  sponsor: described(SuiAddress, "The gateway's sponsor address that pays the gas."),
  gasBudget: documented(Schema.String, "The most gas the sponsor pays, in MIST (1 SUI = 10^9 MIST) as a decimal string.", "5000000"),
  /** After this (ISO 8601) the sponsor no longer holds the gas coin, and the transaction is not settled. */
  expiresAt: documented(Schema.String, "Present the signed payment before this time (ISO 8601).", Example.isoTime)
})
export type GasStationResponse = typeof GasStationResponse.Type
