import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"
import { signIn, withOwner } from "@gateway/client"
import { executeKind } from "@gateway/client/OwnerWallet"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { SUI, terms } from "./ServiceTerms.ts"
import { checkpointed, fundedOwner, type Wallets } from "./Wallets.ts"

/**
 * Over HTTP, as the bench's processes are apart: a seller's live service `name` at `upstreamUrl`, and an agent
 * (with gas of its own, for paying upfront) holding a finalized grant from a funded owner, with its manifest.
 */
export const payingAgent = (wallets: Wallets, upstreamUrl: string, name: string) =>
  Effect.gen(function*() {
    const { api } = wallets
    const owner = yield* fundedOwner(wallets, new Ed25519Keypair())
    const asSeller = withOwner((yield* signIn(api, new Ed25519Keypair())).authorization)
    const payTo = SuiAddress.make(new Ed25519Keypair().toSuiAddress())
    const { service } = yield* api.sellers.register({ payload: terms(name, payTo, upstreamUrl) }).pipe(asSeller)
    yield* api.sellers.activate({ params: { id: service.id } }).pipe(asSeller)
    const agentKey = new Ed25519Keypair()
    yield* wallets.faucet(agentKey.toSuiAddress())
    const signer = yield* api.delegatedSigners.create({
      headers: { "idempotency-key": `${name}-agent` },
      payload: {
        agentAddress: SuiAddress.make(agentKey.toSuiAddress()),
        assetScopes: [{ asset: SUI, totalBudgetAtomic: PositiveAtomicAmount.make("1000000000"), maxPerPaymentAtomic: PositiveAtomicAmount.make("1000") }]
      }
    }).pipe(owner.as)
    const grant = signer.grants[0]
    if (grant === undefined) return yield* Effect.die("no grant")
    const digest = (yield* executeKind(grant.txKindBytes, owner.key, wallets.sui)).digest
    yield* checkpointed(wallets, digest)
    yield* api.delegatedSigners.finalizeCreate({ params: { id: signer.delegatedSignerId, grantId: grant.grantId }, payload: { digest } }).pipe(owner.as)
    const manifest = yield* api.delegatedSigners.manifest({ params: { id: signer.delegatedSignerId } }).pipe(owner.as)
    const entry = yield* api.services.get({ params: { id: service.id } })
    return { entry, payTo, agentKey, manifest, asSeller }
  })
