/**
 * Whether a challenge minted at `nowMs` may offer `exact` (DESIGN.md, "Pay only for answers"): a sign-first payment
 * expires with the epoch it was signed in, so a challenge that could be paid in the epoch's last
 * `maxTimeoutSeconds` would be signed, forwarded and then refused by the chain at settlement. Near the end only the
 * upfront offer is made. An epoch whose end is unknown (a node that does not say) is taken as not ending soon.
 */
export const offersExactAt = (epochEndsAtMs: number | undefined, nowMs: number, maxTimeoutSeconds: number) =>
  epochEndsAtMs === undefined || nowMs + maxTimeoutSeconds * 1000 < epochEndsAtMs
