import { bcs } from "@mysten/sui/bcs"

/**
 * A session voucher (spend_account.move, `claim`): the delegate's session key signs, with Ed25519, the
 * domain tag, the session's object id (32 bytes) and the cumulative amount the payee may claim (u64,
 * little-endian). A final voucher signs another tag: presented to `claim_and_close`, it also ends the
 * session and returns the rest of the deposit.
 */
export const VOUCHER_DOMAIN = "sui-gw-voucher:v1"
export const FINAL_VOUCHER_DOMAIN = "sui-gw-voucher-final:v1"

/** A session lives at most this long: its expiry is at most a week after it opens. */
export const SESSION_MAX_LIFETIME_MS = 604_800_000n
/** Claims stay valid this long after the session's expiry; then anyone may close it. */
export const SESSION_GRACE_MS = 3_600_000n

/**
 * The last instant a claim or a final voucher is taken (spend_account.move, `claim_deadline_ms`): a grace after
 * the expiry, or the owner's close request when it falls earlier. After it, `claim_and_close` aborts and only
 * `close_session` ends the session.
 */
export const claimDeadlineMs = (session: { readonly expiryMs: bigint; readonly closeAtMs: bigint }): bigint => {
  const deadline = session.expiryMs + SESSION_GRACE_MS
  return session.closeAtMs !== 0n && session.closeAtMs < deadline ? session.closeAtMs : deadline
}

const encoder = new TextEncoder()
const domainBytes = encoder.encode(VOUCHER_DOMAIN)
const finalDomainBytes = encoder.encode(FINAL_VOUCHER_DOMAIN)

/** The exact bytes a voucher's Ed25519 signature covers. */
export const voucherMessage = (sessionId: string, cumulative: bigint, final = false): Uint8Array => {
  const domain = final ? finalDomainBytes : domainBytes
  const id = bcs.Address.serialize(sessionId).toBytes()
  const amount = bcs.u64().serialize(cumulative).toBytes()
  const message = new Uint8Array(domain.length + id.length + amount.length)
  message.set(domain, 0)
  message.set(id, domain.length)
  message.set(amount, domain.length + id.length)
  return message
}
