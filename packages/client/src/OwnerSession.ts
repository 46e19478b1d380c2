import type { Signer } from "@mysten/sui/cryptography"
import { Effect } from "effect"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import type { GatewayClient } from "./ApiClient.ts"

/**
 * Signs in as the owner of `signer`: asks for a Sign-In-With-Sui challenge,
 * signs it as a personal message, and returns the `Authorization` value to use.
 */
export const signIn = (client: GatewayClient, signer: Signer) =>
  Effect.gen(function*() {
    const address = SuiAddress.make(signer.toSuiAddress())
    const challenge = yield* client.auth.challenge({ payload: { address } })
    const { signature } = yield* Effect.promise(() =>
      signer.signPersonalMessage(new TextEncoder().encode(challenge.message))
    )
    const session = yield* client.auth.session({ payload: { message: challenge.message, signature } })
    return { authorization: `Bearer ${session.token}`, address: session.address, expiresAt: session.expiresAt }
  })
