import { Clock, Effect } from "effect"
import { lookUpPayment } from "./HeldPayment.ts"
import { ReservationRepo } from "./ReservationRepo.ts"
import { SponsorAccount } from "./SponsorAccount.ts"
import { invalid } from "./SponsorErrors.ts"

/**
 * The sponsor's signature over a payment the gas station built, at settlement, right before execution: the build
 * is claimed for its one co-signature first, so two settlements (or two replicas) never both get one; a second
 * call is refused (the paid-call path keeps the signature it got, to resubmit the same bytes after a crash). The
 * payer's signature and a fresh simulation are the settlement's to check.
 */
export const cosignPayment = Effect.fn("Sponsorship.cosignPayment")(function*(payer: string, txBytes: Uint8Array) {
  const repo = yield* ReservationRepo
  const account = yield* SponsorAccount
  const found = yield* lookUpPayment(payer, txBytes)
  if (found._tag === "Refused") return yield* invalid(found.reason)
  // Uninterruptible from the claim to the signature: a claim without its signature would hold the coin for the epoch.
  return yield* Effect.uninterruptible(Effect.gen(function*() {
    if (!(yield* repo.claimForSigning(found.digest, found.build.holder, yield* Clock.currentTimeMillis))) {
      return yield* invalid("transaction: already co-signed, released or expired: ask the gas station again")
    }
    return yield* account.sign(txBytes)
  }))
})
