import { timingSafeEqual } from "node:crypto"

/** Whether two secrets (MACs, tokens) are equal, in time that does not depend on where they differ. */
export const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
