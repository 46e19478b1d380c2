import { Clock, Effect, Option } from "effect"
import { TransactionDataBuilder } from "@mysten/sui/transactions"
import { recheckRefusal, unspent } from "@gateway/domain/sponsorship/GasBudget"
import type { SponsoredExecution } from "@gateway/domain/Sponsorship"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { checkSponsoredTransaction } from "@gateway/domain/verify/SponsoredTransaction"
import { AppConfig } from "../Config.ts"
import { decodeField, throttle } from "./OwnerRequest.ts"
import { recordSponsorSpend } from "../observability/SponsorMetrics.ts"
import { ReservationRepo } from "./ReservationRepo.ts"
import { SponsorAccount } from "./SponsorAccount.ts"
import type { Build } from "./SponsorBuild.ts"
import { SponsorBudgets } from "./SponsorBudgets.ts"
import { invalid } from "./SponsorErrors.ts"
import { SponsorNode } from "./SponsorNode.ts"
import { transactionSignedBy } from "@gateway/chain/SuiSignatures"

const notBuilt = () =>
  invalid("txBytes: not a transaction the sponsor built for you, or one it released (a newer build, expiry or execution): ask POST /v1/sponsored-transactions again")

/** Claims the build for its one co-signature, co-signs, executes, and gives back what the transaction did not spend. */
const cosignAndExecute = Effect.fnUntraced(function*(owner: SuiAddress, digest: string, bytes: Uint8Array, signature: string, build: Build) {
  const node = yield* SponsorNode
  const repo = yield* ReservationRepo
  const budgets = yield* SponsorBudgets
  const account = yield* SponsorAccount
  // At most one co-signature per build, and only while its reservation holds.
  if (!(yield* repo.claimForSigning(digest, owner, yield* Clock.currentTimeMillis))) {
    return yield* invalid("txBytes: already co-signed, released or expired: ask for sponsorship again")
  }
  const cosigned = yield* account.sign(bytes)
  // On a refusal or an unknown outcome the coin version stays held and the whole budget counts as spent.
  const executed = yield* node.execute(bytes, [signature, cosigned]).pipe(
    Effect.catchTag("ExecuteRefused", (refused) => Effect.fail(invalid(`chain: refused the transaction: ${refused.reason}`)))
  )
  yield* budgets.giveBack(build.taken, unspent(build.gasBudget, executed.gas))
  yield* recordSponsorSpend("owner", executed.gas)
  yield* Effect.ignore(repo.releaseExecuted(digest))
  return { digest: executed.digest, status: executed.status, error: executed.error } satisfies SponsoredExecution
})

/**
 * Co-signs and executes a build: only bytes whose digest is a stored build
 * for this owner, once, before its reservation expires, after the owner's
 * signature verifies and a second simulation shows the call still succeeds
 * within its budget. What the transaction did not spend is given back.
 */
export const executeSponsored = Effect.fn("Sponsorship.execute")(function*(owner: SuiAddress, txBytes: string, signature: string) {
  const config = yield* AppConfig
  const node = yield* SponsorNode
  const repo = yield* ReservationRepo
  const budgets = yield* SponsorBudgets
  const { address: sponsor } = yield* SponsorAccount

  yield* throttle(owner)
  const bytes = yield* decodeField("txBytes", txBytes)
  // The digest names exactly these bytes: anything the gateway did not build for this owner has none it remembers.
  const digest = yield* Effect.try({ try: () => TransactionDataBuilder.getDigestFromBytes(bytes), catch: notBuilt })
  const found = yield* repo.findBuild(digest)
  if (Option.isNone(found) || found.value.holder !== owner) return yield* notBuilt()
  const build = found.value
  if (build.state === "signed") return yield* invalid("txBytes: already co-signed once")
  if (build.expiresAtMs <= (yield* Clock.currentTimeMillis)) return yield* invalid("txBytes: the sponsor's reservation expired: ask for sponsorship again")

  const { epoch, referenceGasPrice } = yield* node.epoch
  if (epoch > build.epoch) return yield* invalid("txBytes: expired with its epoch: ask for sponsorship again")
  const checked = checkSponsoredTransaction(bytes, {
    pkg: config.spendAccountPackage,
    sender: owner,
    sponsor,
    gasBudgetMax: BigInt(config.sponsorGasBudgetMax),
    referenceGasPrice
  })
  if (!checked.ok) return yield* invalid(checked.reason)
  const signedByOwner = yield* Effect.promise(() => transactionSignedBy(bytes, signature, owner))
  if (!signedByOwner) return yield* invalid("signature: not the owner's signature over txBytes")

  // The chain may have moved since the build: what would abort now, or cost more than its budget, is not co-signed and costs nothing.
  const refusal = recheckRefusal(yield* node.simulate(bytes), build.gasBudget)
  if (refusal !== undefined) {
    if (yield* repo.releaseUnsigned(digest)) yield* budgets.giveBackAll(build.taken)
    return yield* invalid(refusal)
  }

  // Uninterruptible from the claim to the release: an owner who hangs up cannot leave a co-signed coin held.
  return yield* Effect.uninterruptible(cosignAndExecute(owner, digest, bytes, signature, build))
})
