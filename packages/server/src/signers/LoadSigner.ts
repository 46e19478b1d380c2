import { Effect, Option } from "effect"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { notFound } from "./SignerErrors.ts"
import { SignerRepo } from "./SignerRepo.ts"

/** The owner's signer, NOT_FOUND when it is not theirs or does not exist. */
export const loadSigner = Effect.fnUntraced(function*(owner: SuiAddress, id: string) {
  const repo = yield* SignerRepo
  const found = yield* repo.get(owner, id)
  if (Option.isNone(found)) return yield* notFound("delegated signer")
  return found.value
})
