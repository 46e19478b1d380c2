import type { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { type Duration, Effect } from "effect"
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http"
import type { PaymentRequirements } from "@x402/core/types"
import * as Kinds from "@gateway/chain/build/Kinds"
import { Chain } from "@gateway/chain/Chain"
import { localLedgerAccess } from "@gateway/chain/local/LocalLedgerAccess"
import { executeKind } from "@gateway/client/OwnerWallet"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { memoOf } from "@gateway/domain/verify/PaymentVerifier"

/**
 * Paying a 402 by hand, step by step and without the agent SDK's checks, so
 * tests can present what an honest SDK never would: wrong amounts, replayed
 * digests, spent nonces, late payments.
 */

export interface SharedRef {
  readonly objectId: string
  readonly initialSharedVersion: bigint
}

/** The grant and pool of a manifest's first grant, as `pay` names them. */
export const refs = (manifest: { grants: ReadonlyArray<{ grantObjectId: string; grantInitialSharedVersion: string; pool: string; poolInitialSharedVersion: string }> }) => {
  const g = manifest.grants[0]
  if (g === undefined) throw new Error("no grant in the manifest")
  return {
    grant: { objectId: g.grantObjectId, initialSharedVersion: BigInt(g.grantInitialSharedVersion) },
    pool: { objectId: g.pool, initialSharedVersion: BigInt(g.poolInitialSharedVersion) }
  }
}

/** Asks for a fresh 402 and returns its x402 terms and nonce. */
export const challengeOf = (url: string) =>
  Effect.gen(function*() {
    const header = yield* Effect.promise(() => fetch(url).then((r) => r.headers.get("payment-required") ?? ""))
    const terms = decodePaymentRequiredHeader(header).accepts[0]
    if (terms === undefined) return yield* Effect.die("no terms")
    return { terms, nonce: String(terms.extra?.["nonce"]) }
  })

/** Executes `pay` through the grant with the nonce as memo; the digest, once a checkpoint has had time to pass. */
export const pay = (input: {
  readonly agentKey: Ed25519Keypair
  readonly grant: SharedRef
  readonly pool: SharedRef
  readonly amount: bigint
  readonly recipient: string
  readonly nonce: string
  readonly coinType?: string
}) =>
  Effect.gen(function*() {
    const packageId = (yield* Chain).packageId
    const kind = yield* Effect.promise(() =>
      Kinds.pay(packageId, {
        sender: input.agentKey.toSuiAddress(),
        grant: input.grant,
        pool: input.pool,
        coinType: input.coinType ?? SUI_COIN_TYPE,
        amount: input.amount,
        recipient: input.recipient,
        memo: memoOf(input.nonce)
      })
    )
    const executed = yield* executeKind(kind.txKindBytes, input.agentKey, yield* localLedgerAccess)
    yield* Effect.sleep("100 millis")
    return executed.digest
  })

/** Presents a credential for `terms` carrying `digest`; the status and JSON body. */
export const present = (url: string, terms: PaymentRequirements, digest: string) =>
  Effect.promise(() =>
    fetch(url, { headers: { "payment-signature": encodePaymentSignatureHeader({ x402Version: 2, accepted: terms, payload: { digest } }) } })
      .then(async (r) => ({ status: r.status, body: await r.json() as Record<string, unknown> }))
  )

/** A fresh challenge, paid (with the overrides) and presented. */
export const payByHand = (input: {
  readonly url: string
  readonly agentKey: Ed25519Keypair
  readonly grant: SharedRef
  readonly pool: SharedRef
  readonly amount?: bigint
  readonly recipient?: string
  readonly coinType?: string
  /** Time to let pass between receiving the challenge and paying it. */
  readonly wait?: Duration.Input
}) =>
  Effect.gen(function*() {
    const { terms, nonce } = yield* challengeOf(input.url)
    if (input.wait !== undefined) yield* Effect.sleep(input.wait)
    const digest = yield* pay({
      agentKey: input.agentKey,
      grant: input.grant,
      pool: input.pool,
      amount: input.amount ?? BigInt(terms.amount),
      recipient: input.recipient ?? terms.payTo,
      nonce,
      ...(input.coinType === undefined ? {} : { coinType: input.coinType })
    })
    return { ...(yield* present(input.url, terms, digest)), terms, nonce, digest }
  })
