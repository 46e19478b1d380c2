import { Deferred, Effect, Exit } from "effect"

/** A sign-first payment as the agent presents it: signed, not executed. */
export interface SignedPayment {
  /** Base64 BCS `TransactionData`. */
  readonly transaction: string
  /** The agent's Sui serialized signature over it, base64. */
  readonly signature: string
  /** The transaction's digest: known from its bytes before anyone executes it. */
  readonly digest: string
  /**
   * When it stops being worth presenting (ms): the challenge's expiry, or earlier when the gas station holds its
   * gas coin for less long.
   */
  readonly expiresAtMs: number
}

interface Entry<E> {
  readonly deferred: Deferred.Deferred<SignedPayment, E>
  readonly expiresAtMs: number
}

/**
 * The one signed payment of each challenge (by nonce). A sign-first payment is executed only once the seller has
 * answered, so a call whose seller failed is retried by presenting the SAME signed bytes again: a second payment
 * signed for the same challenge would be a second transaction the gateway could execute. Concurrent asks for one
 * nonce share one signing; a signing that failed signed nothing and may be tried again; a payment whose challenge
 * (or gas hold) has expired is dropped, since the gateway no longer takes it.
 */
export const makeSignedPayments = <E>(now: () => number = Date.now) => {
  const byNonce = new Map<string, Entry<E>>()

  const prune = () => {
    const at = now()
    for (const [nonce, entry] of byNonce) if (entry.expiresAtMs <= at) byNonce.delete(nonce)
  }

  /** The payment of `nonce`: the one already signed (or being signed), else what `sign` makes, kept until `expiresAtMs`. */
  const once = (nonce: string, expiresAtMs: number, sign: Effect.Effect<SignedPayment, E>): Effect.Effect<SignedPayment, E> =>
    Effect.suspend(() => {
      prune()
      const known = byNonce.get(nonce)
      if (known !== undefined) return Deferred.await(known.deferred)
      const deferred = Deferred.makeUnsafe<SignedPayment, E>()
      byNonce.set(nonce, { deferred, expiresAtMs })
      return sign.pipe(
        Effect.onExit((exit) => {
          if (Exit.isSuccess(exit)) byNonce.set(nonce, { deferred, expiresAtMs: Math.min(expiresAtMs, exit.value.expiresAtMs) })
          else byNonce.delete(nonce)
          return Deferred.done(deferred, exit)
        })
      )
    })

  /** The payment already signed for `nonce`, if it is still presentable. */
  const signed = (nonce: string): Effect.Effect<SignedPayment | undefined> =>
    Effect.suspend(() => {
      prune()
      const known = byNonce.get(nonce)
      if (known === undefined || !Deferred.isDoneUnsafe(known.deferred)) return Effect.succeed(undefined)
      return Effect.orElseSucceed(Deferred.await(known.deferred), () => undefined)
    })

  /**
   * Drops `nonce`'s payment so the next `once` signs anew: only for the gateway's `payment_must_be_signed_again`,
   * when the network (a new epoch, a moved gas price or gas coin) keeps the signed bytes from ever executing.
   */
  const forget = (nonce: string) => Effect.sync(() => void byNonce.delete(nonce))

  return { once, signed, forget }
}
export type SignedPayments<E> = ReturnType<typeof makeSignedPayments<E>>
