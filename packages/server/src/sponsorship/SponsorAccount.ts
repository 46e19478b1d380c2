import { Context, Effect } from "effect"
import type { Keypair } from "@mysten/sui/cryptography"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { SuiAddress } from "@gateway/domain/SuiAddress"

/**
 * The account that pays sponsored gas, while sponsorship is on: its address,
 * and its signature over transaction bytes. The key itself (`SponsorKey`)
 * stays inside this service.
 */
export class SponsorAccount extends Context.Service<SponsorAccount, {
  readonly address: SuiAddress
  /** The sponsor's signature (base64) over transaction bytes. */
  sign(txBytes: Uint8Array): Effect.Effect<string>
}>()("@gateway/server/SponsorAccount") {
  static readonly fromKey = (key: Keypair) =>
    SponsorAccount.of({
      address: SuiAddress.make(normalizeSuiAddress(key.toSuiAddress())),
      sign: (txBytes) => Effect.map(Effect.promise(() => key.signTransaction(txBytes)), (signed) => signed.signature)
    })
}
