/**
 * A remembered computation by string key, for values that never change for
 * their key (a derived id, a normalized type name): `memo(key, compute)`
 * computes once per key. Past `bound` keys it starts over, so it stays
 * bounded whatever keys callers bring.
 */
export const makeMemo = <A>(bound: number = Number.POSITIVE_INFINITY) => {
  const known = new Map<string, A>()
  return (key: string, compute: () => A): A => {
    const cached = known.get(key)
    if (cached !== undefined) return cached
    if (known.size >= bound) known.clear()
    const value = compute()
    known.set(key, value)
    return value
  }
}
