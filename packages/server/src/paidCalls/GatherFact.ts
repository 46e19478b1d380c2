import { Clock, Effect } from "effect"
import { Chain } from "@gateway/chain/Chain"
import type { CatalogEntry } from "@gateway/domain/CatalogEntry"
import { Invalid, NotFinal, type NotFound, type Unavailable, type VerificationError } from "@gateway/domain/Errors"
import type { AskedCall, GatheredFacts, PaidCallNeed } from "@gateway/domain/payment/PaidCallDecision"
import { carriesBody } from "@gateway/domain/payment/PaidCallMethods"
import { verifyPayment } from "@gateway/domain/verify/PaymentVerifier"
import { AppConfig } from "../Config.ts"
import { Catalog, type Forwardable } from "../catalog/Catalog.ts"
import { SignerRepo } from "../signers/SignerRepo.ts"
import type { PaidCallRequest } from "./PaidCallRequest.ts"
import type { PaymentCredential } from "./PaymentChallenge.ts"
import { type ProvenRequest, provesPossession } from "./PaymentProofCheck.ts"
import { PaymentRepo } from "./PaymentRepo.ts"

/** A forward still marked in flight this many upstream timeouts later belongs to a request that died (crash, lost store): it may be taken over. */
const STALE_FORWARD_TIMEOUTS = 4

/**
 * How long after its challenge expired a digest the chain has never seen is still answered "not final, present
 * again": a real payment is final within seconds, so by then the digest was mistyped or its transaction never
 * reached the chain, and asking the payer to keep presenting it would loop forever.
 */
export const UNKNOWN_DIGEST_GRACE_MS = 5 * 60_000

/** Past the bound, the chain's "unknown digest" becomes the payer's to check: INVALID, saying the money did not move. */
const unknownForGood = (challengeExpiresAtMs: number) => (error: NotFinal | Unavailable) =>
  Effect.gen(function*() {
    if (!(error instanceof NotFinal) || error.reason !== "unknown_digest") return yield* Effect.fail(error)
    if ((yield* Clock.currentTimeMillis) <= challengeExpiresAtMs + UNKNOWN_DIGEST_GRACE_MS) return yield* Effect.fail(error)
    return yield* new Invalid({
      message:
        "The chain has never seen a transaction with this digest, and the challenge it would pay expired over 5 minutes ago: check the digest you sent (a mistyped or never-submitted transaction moved no money). If you did pay, present the digest your wallet reports",
      reason: "digest_unknown_to_the_chain"
    })
  })

/** What a challenge for this entry asks: the terms a payment of it is judged against. */
export const askedCallOf = (entry: CatalogEntry): AskedCall => ({
  serviceId: entry.id,
  name: entry.name,
  method: entry.method,
  path: entry.path,
  price: BigInt(entry.price),
  payTo: entry.payTo,
  asset: entry.asset
})

/** The request a proof must name, and the one the service's challenge describes. */
const provenRequest = (request: PaidCallRequest, entry: CatalogEntry): ProvenRequest => ({
  method: request.method,
  declaredMethod: entry.method,
  resourceUrl: entry.resourceUrl,
  search: request.search,
  body: carriesBody(request.method) ? request.body : new Uint8Array()
})

/**
 * The fact `decidePaidCall` asked for: a read, or for `Claim` and `Reclaim` the write whose outcome is the fact
 * (whether this request now holds the payment).
 */
export const gatherFact = Effect.fnUntraced(function*(
  need: PaidCallNeed,
  request: PaidCallRequest,
  target: Forwardable,
  credential: PaymentCredential
): Effect.fn.Return<GatheredFacts, NotFound | Unavailable | VerificationError | Invalid, PaymentRepo | Catalog | Chain | SignerRepo | AppConfig> {
  const repo = yield* PaymentRepo
  switch (need._tag) {
    case "AskedCall":
      return { asked: askedCallOf(yield* (yield* Catalog).atRevision(need.serviceId, need.revision)) }
    case "RecordedPayment":
      return { recorded: yield* repo.findPayment(credential.digest) }
    case "ChainPayment": {
      const chain = yield* Chain
      const tx = yield* chain.getTransaction(credential.digest).pipe(Effect.catch(unknownForGood(need.challengeExpiresAtMs)))
      const paid = yield* verifyPayment({ pkg: chain.pkg, amount: need.amount, recipient: need.recipient, nonce: need.nonce }, tx)
      return { paid: { ...paid, paidAtMs: Number(tx.timestampMs) } }
    }
    case "Possession":
      return { proven: yield* provesPossession(credential, provenRequest(request, target.entry), need.payer) }
    case "PayingGrant":
      return { grant: yield* (yield* SignerRepo).findPayingGrant(need.grantObjectId) }
    case "Claim":
      return { held: yield* repo.claim(need.claim, new Date(yield* Clock.currentTimeMillis)) }
    case "Reclaim": {
      const config = yield* AppConfig
      return { held: yield* repo.reclaim(credential.digest, STALE_FORWARD_TIMEOUTS * config.upstreamTimeoutMs) }
    }
  }
})
