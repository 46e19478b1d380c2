import { type ClientWithCoreApi, ObjectError } from "@mysten/sui/client"
import { normalizeStructTag } from "@mysten/sui/utils"
import { CLOCK_OBJECT_ID, grantType, grantWindowOf, Structs } from "@gateway/domain/chain/SpendAccountModule"
import type { GrantState } from "@gateway/domain/payment/OfferVouching"

/**
 * The grant's window and recipients as the chain holds them now, and the
 * chain's Clock, in one read before each payment: the window counts payments
 * made through any gateway or none, which no manifest can know, and it rolls
 * by the chain's time, not the payer's. Fails on an object that is not a
 * Grant of the manifest's package.
 */
export const readGrantState = async (
  client: ClientWithCoreApi,
  input: { readonly packageId: string; readonly grantObjectId: string }
): Promise<{ readonly state: GrantState; readonly chainNowMs: number }> => {
  const { objects } = await client.core.getObjects({ objectIds: [input.grantObjectId, CLOCK_OBJECT_ID], include: { content: true } })
  const [grant, clock] = objects
  if (grant === undefined || grant instanceof Error) throw grant instanceof ObjectError ? grant : new Error(`${input.grantObjectId} could not be read`)
  if (clock === undefined || clock instanceof Error) throw new Error("the chain's Clock could not be read")
  if (normalizeStructTag(grant.type) !== normalizeStructTag(grantType(input.packageId))) {
    throw new Error(`${input.grantObjectId} is not a Grant of ${input.packageId}`)
  }
  const fields = Structs.Grant.parse(grant.content)
  return {
    state: { window: grantWindowOf(fields), recipients: fields.recipients },
    chainNowMs: Number(Structs.Clock.parse(clock.content).timestamp_ms)
  }
}
