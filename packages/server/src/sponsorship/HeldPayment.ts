import { Clock, Effect, Option } from "effect"
import { TransactionDataBuilder } from "@mysten/sui/transactions"
import { readPaymentTransaction } from "@gateway/domain/verify/PaymentTransaction"
import { checkSponsoredPayment } from "@gateway/domain/verify/SponsoredPayment"
import { AppConfig } from "../Config.ts"
import { heldForPayer } from "./PaymentHolder.ts"
import { ReservationRepo } from "./ReservationRepo.ts"
import { SponsorAccount } from "./SponsorAccount.ts"
import type { StoredBuild } from "./SponsorBuild.ts"
import { SponsorNode } from "./SponsorNode.ts"

/** Whether the sponsor still holds a payment's gas, as the paid-call path asks before forwarding. */
export type PaymentHold = { readonly _tag: "Held" } | { readonly _tag: "Refused"; readonly reason: string }

/** A payment build found for its bytes, or why there is none the sponsor would co-sign. */
export type PaymentLookup =
  | { readonly _tag: "Held"; readonly digest: string; readonly build: StoredBuild }
  | { readonly _tag: "Refused"; readonly reason: string }

const refused = (reason: string): PaymentLookup => ({ _tag: "Refused", reason })

const NOT_BUILT = "transaction: not a transaction the gas station built for this payer, or one it released (expiry, a new epoch, settlement): ask the gas station again"

/**
 * The gas-station build these exact bytes are (their digest names them), for this payer, while the sponsor still
 * holds its coin (reserved, not co-signed, not expired, in the epoch it was built for), and bytes that keep the
 * sponsor's gas rules (`checkSponsoredPayment`) and the payment rules (`readPaymentTransaction`). Reads only.
 */
export const lookUpPayment = Effect.fnUntraced(function*(payer: string, txBytes: Uint8Array) {
  const config = yield* AppConfig
  const node = yield* SponsorNode
  const repo = yield* ReservationRepo
  const { address: sponsor } = yield* SponsorAccount
  const digest = yield* Effect.option(Effect.try(() => TransactionDataBuilder.getDigestFromBytes(txBytes)))
  if (Option.isNone(digest)) return refused("transaction: not transaction data")
  const found = yield* repo.findBuild(digest.value)
  if (Option.isNone(found) || !heldForPayer(found.value.holder, payer)) return refused(NOT_BUILT)
  const build = found.value
  if (build.state === "signed") return refused("transaction: the sponsor already co-signed it once")
  if (build.expiresAtMs <= (yield* Clock.currentTimeMillis)) return refused("transaction: the sponsor's hold on its gas coin expired: ask the gas station again")
  const { epoch, referenceGasPrice } = yield* node.epoch
  if (epoch !== build.epoch) return refused("transaction: expired with its epoch: ask the gas station again")
  const read = readPaymentTransaction(txBytes, config.spendAccountPackage)
  if (!read.ok) return refused(read.reason)
  const checked = checkSponsoredPayment(read.value, { payer, sponsor, referenceGasPrice, gasBudgetMax: BigInt(config.sponsorGasBudgetMax), epoch })
  if (!checked.ok) return refused(checked.reason)
  return { _tag: "Held", digest: digest.value, build } satisfies PaymentLookup
})

/** Whether the sponsor would co-sign these bytes for this payer at settlement, as far as the store and the bytes say: asked before forwarding. */
export const heldPayment = Effect.fn("Sponsorship.heldPayment")(function*(payer: string, txBytes: Uint8Array) {
  const found = yield* lookUpPayment(payer, txBytes)
  return found._tag === "Held" ? { _tag: "Held" } satisfies PaymentHold : found
})
