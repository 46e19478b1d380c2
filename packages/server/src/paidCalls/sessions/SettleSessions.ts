import { Clock, Effect, Option } from "effect"
import { fromBase64 } from "@mysten/sui/utils"
import { claimAndClose, claimSessions, closeSession } from "@gateway/chain/transactions/SessionKinds"
import { Chain } from "@gateway/chain/Chain"
import { claimDeadlineMs } from "@gateway/domain/chain/SessionVoucher"
import { Unavailable } from "@gateway/domain/Errors"
import { Sponsorship } from "../../sponsorship/Sponsorship.ts"
import { PaymentSessionRepo, type SessionRecord } from "./PaymentSessionRepo.ts"

/** How far past a session's claim deadline the gateway still presents its final voucher, for clock skew. */
const CLOCK_SKEW_MARGIN_MS = 60_000n

const sessionRef = (r: SessionRecord) => ({ objectId: r.session.sessionId, initialSharedVersion: r.initialSharedVersion })

/** Claims and closes are the sponsor's own calls: without a sponsor, sellers claim with their vouchers themselves. */
const sponsorOf = Effect.gen(function*() {
  const { sponsorAddress } = yield* Sponsorship
  if (Option.isSome(sponsorAddress)) return sponsorAddress.value
  return yield* new Unavailable({ message: "Gas sponsorship is off on this gateway: sellers claim with their vouchers", reason: "sponsorship_off" })
})

const registryRef = Effect.gen(function*() {
  const chain = yield* Chain
  return { objectId: chain.pkg.registryId, initialSharedVersion: yield* chain.sharedVersion(chain.pkg.registryId) }
})

/**
 * Claims the charged vouchers of the sessions due (the seller asked, half the deposit unclaimed, or the session
 * expires soon), all in one transaction whose gas the sponsor pays. A claim at or below what the chain already
 * paid changes nothing there, so a round that repeats another's is harmless. What it claimed, it records.
 */
export const claimRound = Effect.fn("Sessions.claimRound")(function*() {
  const repo = yield* PaymentSessionRepo
  const chain = yield* Chain
  // The store selects only sessions with a charged voucher; the signature's type says so here too.
  const due = (yield* repo.dueForClaim(yield* Clock.currentTimeMillis)).flatMap((r) =>
    r.chargedSignature === null ? [] : [{ record: r, signature: r.chargedSignature }]
  )
  if (due.length === 0) return 0
  const sponsor = yield* sponsorOf
  const registry = yield* registryRef
  const kind = yield* Effect.promise(() =>
    claimSessions(chain.pkg, {
      sender: sponsor,
      registry,
      claims: due.map(({ record, signature }) => ({
        session: sessionRef(record),
        coinType: record.session.coinType,
        cumulative: record.session.charged,
        signature
      }))
    })
  )
  const executed = yield* (yield* Sponsorship).executeOwnCall(fromBase64(kind.txKindBytes), "claim")
  if (executed.status !== "success") return yield* Effect.logWarning("a session claim round failed on chain", executed.digest, executed.error).pipe(Effect.as(0))
  yield* Effect.forEach(due, ({ record }) => repo.markClaimed(record.session.sessionId, record.session.charged), { discard: true })
  yield* Effect.logInfo("claimed sessions", executed.digest, due.length)
  return due.length
})

/**
 * Ends one session on chain: with the delegate's final voucher (`claim_and_close`, the seller paid up to it), or,
 * its claims over, by `close_session` (anyone may then). The rest of the deposit goes back to the pool and the
 * grant's budget. The chain's deposit and claims, read just before, say what went where.
 */
export const closeOne = Effect.fn("Sessions.closeOne")(function*(r: SessionRecord) {
  const repo = yield* PaymentSessionRepo
  const chain = yield* Chain
  const onChain = yield* chain.readSession(r.session.sessionId)
  if (Option.isNone(onChain)) {
    // Closed by someone else (the payee, or anyone after its claims ended): what it returned is the chain's to say.
    yield* repo.markClosed(r.session.sessionId, { digest: null, claimed: r.session.claimed, returned: null })
    return Option.none()
  }
  const sponsor = yield* sponsorOf
  const common = {
    sender: sponsor,
    registry: yield* registryRef,
    session: sessionRef(r),
    grant: { objectId: r.session.grantObjectId, initialSharedVersion: yield* chain.sharedVersion(r.session.grantObjectId) },
    pool: { objectId: onChain.value.poolId, initialSharedVersion: yield* chain.sharedVersion(onChain.value.poolId) },
    coinType: r.session.coinType
  }
  // A final voucher pays only until the claims end; a close that did not go through by then (the chain or the
  // sponsor down for that long) ends the session with `close_session`, or `claim_and_close` would abort every round
  // and the deposit would stay locked. The margin keeps a gateway clock running ahead of the chain's from giving up
  // the seller's final voucher while the chain would still take it.
  const claimsOver = BigInt(yield* Clock.currentTimeMillis) > claimDeadlineMs(onChain.value) + CLOCK_SKEW_MARGIN_MS
  const final = claimsOver ? null : r.final
  const kind = yield* Effect.promise(() =>
    final === null ? closeSession(chain.pkg, common) : claimAndClose(chain.pkg, { ...common, cumulative: final.cumulative, signature: final.signature })
  )
  const executed = yield* (yield* Sponsorship).executeOwnCall(fromBase64(kind.txKindBytes), "close")
  if (executed.status !== "success") return yield* Effect.logWarning("a session close failed on chain", executed.digest, executed.error).pipe(Effect.as(Option.none()))
  const claimed = final !== null && final.cumulative > onChain.value.claimed ? final.cumulative : onChain.value.claimed
  const closed = { digest: executed.digest, claimed, returned: onChain.value.deposit - claimed }
  yield* repo.markClosed(r.session.sessionId, closed)
  return Option.some(closed)
})

/** Closes the sessions due: a final voucher asked to, or their claims are over. */
export const closeRound = Effect.fn("Sessions.closeRound")(function*() {
  const due = yield* (yield* PaymentSessionRepo).dueForClose(yield* Clock.currentTimeMillis)
  yield* Effect.forEach(due, (r) => Effect.ignore(closeOne(r)), { discard: true })
})
