import { Effect, Option } from "effect"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { Chain } from "@gateway/chain/Chain"
import { Invalid } from "@gateway/domain/Errors"
import { normalizeCoinType } from "@gateway/domain/chain/SpendAccountModule"
import { SignerRepo } from "../../signers/SignerRepo.ts"
import { Sponsorship } from "../../sponsorship/Sponsorship.ts"
import { PaymentSessionRepo, type SessionRecord } from "./PaymentSessionRepo.ts"

const unknownSession = () =>
  new Invalid({
    message: "No open payment session of this gateway's package is at this id: open one (spend_account::open_session) and present its id",
    reason: "session_unknown"
  })

const badSignature = () =>
  new Invalid({ message: "The voucher's signature is not the session key's over this session and amount", reason: "voucher_signature_invalid" })

/**
 * The session a voucher names, as the store knows it; met for the first time, read from the chain and
 * remembered, but only a `Session` of this package drawing on a grant this gateway provisioned, from that
 * grant's own pool, that only the payee or this gateway may end early, and only once the presented signature
 * is its key's (`provenBy`): nothing is written for a request that does not verify.
 */
export const knownSession = Effect.fnUntraced(function*(sessionId: string, provenBy: (voucherKey: Uint8Array) => boolean) {
  const repo = yield* PaymentSessionRepo
  const known = yield* repo.find(sessionId)
  if (Option.isSome(known)) return known.value
  const onChain = yield* (yield* Chain).readSession(sessionId)
  if (Option.isNone(onChain)) return yield* unknownSession()
  const s = onChain.value
  // Only this gateway (its sponsor) or the payee may end the session early: otherwise its delegate could close it
  // on chain with a final voucher while the gateway forwarded calls on vouchers nobody could claim any more.
  const operator = Option.getOrElse((yield* Sponsorship).sponsorAddress, () => s.payee)
  if (s.operator !== operator && s.operator !== s.payee) {
    return yield* new Invalid({
      message: `This session's operator is neither the payee nor this gateway (${operator}): open one with the offer's extra.sessionOperator`,
      reason: "session_operator_not_this_gateway"
    })
  }
  const grant = yield* (yield* SignerRepo).findPayingGrant(s.grantObjectId)
  if (Option.isNone(grant) || normalizeSuiAddress(grant.value.poolId) !== s.poolId || normalizeCoinType(grant.value.coinType) !== s.coinType) {
    return yield* new Invalid({ message: "This session draws on a grant this gateway did not provision", reason: "session_grant_unknown" })
  }
  if (!provenBy(s.voucherKey)) return yield* badSignature()
  yield* repo.learn({
    sessionId: s.sessionId,
    grantObjectId: s.grantObjectId,
    initialSharedVersion: s.initialSharedVersion,
    owner: s.owner,
    delegate: s.delegate,
    payee: s.payee,
    coinType: s.coinType,
    voucherKey: s.voucherKey,
    deposit: s.deposit,
    expiryMs: s.expiryMs,
    closeAtMs: s.closeAtMs,
    claimed: s.claimed
  })
  const learned = yield* repo.find(sessionId)
  return Option.isSome(learned) ? learned.value : yield* unknownSession()
})

/** The session with its deposit as the chain holds it now: a voucher above the known deposit may follow a top-up. */
export const withTopUps = Effect.fnUntraced(function*(record: SessionRecord) {
  const onChain = yield* (yield* Chain).readSession(record.session.sessionId)
  if (Option.isNone(onChain) || onChain.value.deposit <= record.session.deposit) return record
  yield* (yield* PaymentSessionRepo).raiseDeposit(record.session.sessionId, onChain.value.deposit)
  return { ...record, session: { ...record.session, deposit: onChain.value.deposit } }
})
