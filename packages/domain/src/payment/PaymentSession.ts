/**
 * A session as the gateway knows it: what the chain said when it opened (and at its last top-up), and what the
 * gateway has accepted since. `charged` is the cumulative amount of the last voucher whose call the seller
 * answered: what the payee may claim. A voucher in flight is `pending` until the seller answers.
 */
export interface PaymentSession {
  readonly sessionId: string
  readonly grantObjectId: string
  readonly payee: string
  readonly coinType: string
  /** Every deposit the chain holds for it (open and top-ups), as last read. */
  readonly deposit: bigint
  readonly expiryMs: bigint
  /** When the owner's close request takes effect (after a pause or revoke); 0 when none. */
  readonly closeAtMs: bigint
  readonly charged: bigint
  readonly claimed: bigint
  readonly state: PaymentSessionState
}

/** `closing`: the delegate's final voucher was accepted and the session is being closed on chain. */
export type PaymentSessionState = "open" | "closing" | "closed"

/** The grant a session draws on, as the gateway sees it now. */
export interface SessionGrantView {
  readonly paused: boolean
  readonly revoked: boolean
  readonly maxPerPayment: bigint
}
