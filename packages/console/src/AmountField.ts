import { ApiFailure } from "./ApiFailure.ts"
import { toAtomic } from "./DisplayAmount.ts"

/** A typed amount in display units → its exact atomic string, or an INVALID failure naming the field. Unknown decimals mean atomic units. */
export const atomicOrFail = (field: string, text: string, decimals: number | null): string => {
  const converted = toAtomic(text, decimals ?? 0)
  if (!converted.ok) throw new ApiFailure("INVALID", `${field}: ${converted.problem}`)
  return converted.atomic
}
