import { Context, Duration, Effect, Layer, Schedule } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { Conflict, Invalid, NotFound, Unavailable } from "@gateway/domain/Errors"
import type { DelegatedSignerId, ServiceId } from "@gateway/domain/Ids"
import type { ClosedSession, CloseSessionRequest, PaymentSessionList } from "@gateway/domain/PaymentSessionView"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { Catalog } from "../../catalog/Catalog.ts"
import { SignerRepo } from "../../signers/SignerRepo.ts"
import { Signers } from "../../signers/Signers.ts"
import { Sponsorship } from "../../sponsorship/Sponsorship.ts"
import { withServices } from "../../UseCase.ts"
import { closeSessionByVoucher } from "./CloseSession.ts"
import { PaymentSessionRepo } from "./PaymentSessionRepo.ts"
import { claimRound, closeRound } from "./SettleSessions.ts"
import { watchSessionGrants } from "./WatchSessionGrants.ts"

/** How often each replica claims what is due, closes what ended, and reads its sessions' grants from the chain. */
const ROUND_INTERVAL = Duration.seconds(5)

/**
 * Payment sessions after their vouchers (docs/paid-calls.md §7): the seller's and the owner's listings, the
 * seller's claim request, the agent's close, and the rounds every replica runs. Rounds that overlap across
 * replicas are harmless: a claim at or below what was claimed changes nothing on chain, and a close runs once.
 */
export class PaymentSessions extends Context.Service<PaymentSessions, {
  forService(seller: SuiAddress, id: ServiceId): Effect.Effect<PaymentSessionList, NotFound | Unavailable>
  forSigner(owner: SuiAddress, id: DelegatedSignerId): Effect.Effect<PaymentSessionList, NotFound | Unavailable>
  claimNow(seller: SuiAddress, id: ServiceId): Effect.Effect<{ readonly sessions: number }, NotFound | Invalid | Unavailable>
  close(sessionId: string, request: CloseSessionRequest): Effect.Effect<ClosedSession, Invalid | Conflict | NotFound | Unavailable>
}>()("@gateway/server/PaymentSessions") {
  static readonly layer = Layer.effect(
    PaymentSessions,
    Effect.gen(function*() {
      const services = Context.pick(Chain, PaymentSessionRepo, SignerRepo, Sponsorship)(
        yield* Effect.context<Chain | PaymentSessionRepo | SignerRepo | Sponsorship>()
      )
      const repo = yield* PaymentSessionRepo
      const catalog = yield* Catalog
      const signers = yield* Signers
      const round = Effect.all([Effect.ignore(watchSessionGrants()), Effect.ignore(claimRound()), Effect.ignore(closeRound())], { discard: true })
      yield* Effect.forkScoped(Effect.repeat(Effect.provideContext(round, services), Schedule.spaced(ROUND_INTERVAL)))
      const bound = withServices(services)
      return PaymentSessions.of({
        // Ownership first: another seller's service, or another owner's signer, answers NOT_FOUND as elsewhere.
        forService: Effect.fn("PaymentSessions.forService")(function*(seller, id) {
          const service = yield* catalog.manage(seller, id)
          return { sessions: yield* repo.list({ payee: service.service.payTo }) }
        }),
        forSigner: Effect.fn("PaymentSessions.forSigner")(function*(owner, id) {
          const signer = yield* signers.get(owner, id)
          const grantObjectIds = signer.grants.flatMap((g) => g.grantObjectId === null ? [] : [g.grantObjectId])
          return { sessions: yield* repo.list({ grantObjectIds }) }
        }),
        claimNow: Effect.fn("PaymentSessions.claimNow")(function*(seller, id) {
          const service = yield* catalog.manage(seller, id)
          const requested = yield* repo.requestClaims(service.service.payTo)
          if (requested > 0) yield* bound(claimRound)()
          return { sessions: requested }
        }),
        close: bound(closeSessionByVoucher)
      })
    })
  ).pipe(Layer.provide(PaymentSessionRepo.layer))
}
