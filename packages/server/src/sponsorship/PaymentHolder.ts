import { createHash } from "node:crypto"
import { bcs } from "@mysten/sui/bcs"
import { normalizeSuiAddress } from "@mysten/sui/utils"

/**
 * Who holds a gas-station build in the sponsor's reservations: the payer and the payment, never an owner's
 * address, so a payment build and an owner's own build never release each other, and owner execution never
 * matches a payment build. One build per payment: asking again for the same payment hands out the same build
 * rather than releasing it, so nobody (the station asks for no session) can release a payment a payer already
 * signed by asking for it again; different payments of one payer are held side by side.
 */
const PREFIX = "payment:"

const payerPart = (payer: string) => `${PREFIX}${normalizeSuiAddress(payer)}:`

/** The holder of `payer`'s build of this kind: the kind as BCS writes it (canonical), hashed. Throws when it is not BCS. */
export const paymentHolder = (payer: string, kindBytes: Uint8Array): string => {
  const canonical = bcs.TransactionKind.serialize(bcs.TransactionKind.parse(kindBytes)).toBytes()
  return `${payerPart(payer)}${createHash("sha256").update(canonical).digest("hex")}`
}

/** Whether a stored build's holder is a payment build of `payer`. */
export const heldForPayer = (holder: string, payer: string): boolean => holder.startsWith(payerPart(payer))

/** Whether a stored build's holder is a payment build at all (not an owner's). */
export const isPaymentHolder = (holder: string): boolean => holder.startsWith(PREFIX)
