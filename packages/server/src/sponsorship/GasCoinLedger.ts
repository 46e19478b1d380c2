/** How long a coin handed out in sponsored bytes stays set aside for them. */
const RESERVATION_MS = 2 * 60 * 1000

/** How long the gateway remembers a gas coin version it co-signed. */
const SIGNED_MEMORY_MS = 60 * 60 * 1000

/**
 * The sponsor's gas coins as this replica hands them out: one coin per
 * sponsored transaction, set aside for its owner until executed or stale (an
 * owner holds at most one), and never two co-signatures over the same coin
 * version, so no two transactions the sponsor signed can equivocate on it.
 */
export const makeGasCoinLedger = () => {
  const reserved = new Map<string, { readonly owner: string; readonly untilMs: number }>()
  const signed = new Map<string, number>()
  const versionKey = (objectId: string, version: string) => `${objectId}@${version}`

  return {
    /** Sets aside the first free coin of `candidates` for `owner`, releasing the owner's previous one. */
    reserve(owner: string, candidates: ReadonlyArray<string>, nowMs: number): string | undefined {
      for (const [id, r] of reserved) if (r.owner === owner || r.untilMs <= nowMs) reserved.delete(id)
      const free = candidates.find((id) => !reserved.has(id))
      if (free !== undefined) reserved.set(free, { owner, untilMs: nowMs + RESERVATION_MS })
      return free
    },
    /** Claims each coin version for one co-signature; false (claiming nothing) when any was already signed. */
    claimSignature(payment: ReadonlyArray<{ readonly objectId: string; readonly version: string }>, nowMs: number): boolean {
      for (const [key, at] of signed) if (at + SIGNED_MEMORY_MS <= nowMs) signed.delete(key)
      if (payment.some((p) => signed.has(versionKey(p.objectId, p.version)))) return false
      for (const p of payment) signed.set(versionKey(p.objectId, p.version), nowMs)
      return true
    },
    release(owner: string) {
      for (const [id, r] of reserved) if (r.owner === owner) reserved.delete(id)
    }
  }
}
