import { Clock, Context, Effect, Layer, Option } from "effect"
import type { ClientWithCoreApi } from "@mysten/sui/client"
import type { Keypair } from "@mysten/sui/cryptography"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64, normalizeSuiAddress, toBase64 } from "@mysten/sui/utils"
import { verifyTransactionSignature } from "@mysten/sui/verify"
import { bcs } from "@mysten/sui/bcs"
import { FAUCET_AMOUNT } from "@gateway/chain/local/Faucet"
import { localTransport } from "@gateway/chain/local/grpc/LocalTransport"
import { LocalLedger } from "@gateway/chain/local/LocalLedger"
import { describeExecutionError } from "@gateway/chain/sui/ExecutionErrorText"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { Invalid, Unavailable } from "@gateway/domain/Errors"
import type { SponsoredExecution, SponsoredTransaction } from "@gateway/domain/Sponsorship"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { checkSponsoredKind, checkSponsoredTransaction, ownedInputIds } from "@gateway/domain/verify/SponsoredTransaction"
import { AppConfig } from "../Config.ts"
import { makeSignInBrake } from "../owners/OwnerSessions.ts"
import { makeGasCoinLedger } from "./GasCoinLedger.ts"
import { SponsorKey } from "./SponsorKey.ts"

/** Local mode keeps the sponsor this many faucet coins, so that many owners can be sponsored at once. */
const LOCAL_SPONSOR_COINS = 4

const invalid = (reason: string) => new Invalid({ message: "The platform does not sponsor this transaction", reason })
const unavailable = (message: string, reason: string) => new Unavailable({ message, reason })
const chainDown = (cause: unknown) =>
  unavailable("The chain could not be reached", `chain: ${cause instanceof Error ? cause.message : String(cause)}`)

/**
 * Gas paid by the platform for an owner's own spend_account calls: the
 * gateway wraps a prepared kind into transaction data the owner sends and its
 * sponsor key pays for, and co-signs and executes it only once the bytes
 * check out again (the call, the sender, the gas owner and budget), the
 * owner's signature verifies, and the owner is within the rate limit.
 */
export class Sponsorship extends Context.Service<Sponsorship, {
  sponsor(owner: SuiAddress, txKindBytes: string): Effect.Effect<SponsoredTransaction, Invalid | Unavailable>
  execute(owner: SuiAddress, txBytes: string, signature: string): Effect.Effect<SponsoredExecution, Invalid | Unavailable>
}>()("@gateway/server/Sponsorship") {
  static readonly layer = Layer.effect(
    Sponsorship,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const key = yield* SponsorKey
      const pkg = config.spendAccountPackage
      const gasBudgetMax = BigInt(config.sponsorGasBudgetMax)
      const admit = makeSignInBrake(config.sponsorPerOwnerPerMinute)
      const coins = makeGasCoinLedger()

      // The gateway reads the chain as a wallet does: a gRPC client on the configured node, or on LocalLedger in process.
      const ledger = yield* Effect.serviceOption(LocalLedger)
      const client: ClientWithCoreApi = yield* Option.match(config.suiGrpcUrl, {
        onSome: (baseUrl) => Effect.succeed(new SuiGrpcClient({ network: config.network, baseUrl })),
        onNone: () =>
          Option.match(ledger, {
            onNone: () => Effect.die(new Error("local mode without a LocalLedger")),
            onSome: (l) =>
              Effect.map(localTransport.pipe(Effect.provideService(LocalLedger, l)), (transport) => new SuiGrpcClient({ network: config.network, transport }))
          })
      })
      const chain = <A>(run: () => Promise<A>) => Effect.tryPromise({ try: run, catch: chainDown })

      // Local mode funds its own sponsor from the faucet, once: a restart finds the coins already there.
      if (Option.isSome(key) && Option.isSome(ledger) && Option.isNone(config.suiGrpcUrl)) {
        const address = key.value.toSuiAddress()
        const { objects } = yield* Effect.orDie(chain(() => client.core.listCoins({ owner: address })))
        for (let i = objects.length; i < LOCAL_SPONSOR_COINS; i++) yield* Effect.orDie(ledger.value.mint(address, SUI_COIN_TYPE, FAUCET_AMOUNT))
      }

      const sponsorKey = Option.match(key, {
        onNone: () =>
          Effect.fail(unavailable("Gas sponsorship is off on this gateway: pay gas from your own wallet", "sponsorship_off")),
        onSome: (k) => Effect.succeed(k)
      })

      const throttle = (owner: SuiAddress) =>
        Effect.flatMap(Clock.currentTimeMillis, (ms) =>
          admit(owner, ms)
            ? Effect.void
            : Effect.fail(unavailable("Too many sponsored transactions: try again in a minute, or pay gas from your own wallet", "sponsorship_rate_limited")))

      const check = (bytes: Uint8Array, owner: SuiAddress, sponsor: Keypair): Effect.Effect<void, Invalid> => {
        const checked = checkSponsoredTransaction(bytes, { pkg, sender: owner, sponsor: sponsor.toSuiAddress(), gasBudgetMax })
        return checked.ok ? Effect.void : Effect.fail(invalid(checked.reason))
      }

      /** Every owned object the call takes must be the owner's: the sponsor's own coins pay gas and nothing else. */
      const ownedByOwner = (bytes: Uint8Array, owner: SuiAddress) =>
        Effect.gen(function*() {
          const ids = ownedInputIds(bytes)
          if (ids.length === 0) return
          const { objects } = yield* chain(() => client.core.getObjects({ objectIds: [...ids] }))
          for (const object of objects) {
            const mine = !(object instanceof Error) && object.owner.$kind === "AddressOwner" && normalizeSuiAddress(object.owner.AddressOwner) === normalizeSuiAddress(owner)
            if (!mine) return yield* invalid("inputs: an object the call takes is not the owner's")
          }
        })

      const decode = (field: string, text: string) =>
        Effect.try({ try: () => fromBase64(text), catch: () => invalid(`${field}: not base64`) })

      const sponsor = Effect.fn("Sponsorship.sponsor")(function*(owner: SuiAddress, txKindBytes: string) {
        const sponsorKeypair = yield* sponsorKey
        yield* throttle(owner)
        const kindBytes = yield* decode("txKindBytes", txKindBytes)
        const kind = checkSponsoredKind(kindBytes, pkg)
        if (!kind.ok) return yield* invalid(kind.reason)

        const sponsorAddress = sponsorKeypair.toSuiAddress()
        const { objects } = yield* chain(() => client.core.listCoins({ owner: sponsorAddress }))
        const usable = objects.filter((c) => BigInt(c.balance) >= gasBudgetMax)
        const now = yield* Clock.currentTimeMillis
        const coinId = coins.reserve(owner, usable.map((c) => c.objectId), now)
        const coin = usable.find((c) => c.objectId === coinId)
        if (coin === undefined) {
          return yield* unavailable(
            "The sponsor has no gas free right now: try again shortly, or pay gas from your own wallet",
            usable.length === 0 ? "sponsor_unfunded" : "sponsor_busy"
          )
        }

        const transaction = Transaction.fromKind(kindBytes)
        transaction.setSender(owner)
        transaction.setGasOwner(sponsorAddress)
        transaction.setGasPayment([{ objectId: coin.objectId, version: coin.version, digest: coin.digest }])
        // No budget set: the build dry-runs the call with the sponsor paying, so a call that would abort costs the sponsor nothing.
        const txBytes = yield* Effect.tryPromise({
          try: () => transaction.build({ client }),
          catch: (cause) => invalid(`dry run: ${cause instanceof Error ? cause.message : String(cause)}`)
        }).pipe(Effect.tapError(() => Effect.sync(() => coins.release(owner))))
        yield* Effect.andThen(check(txBytes, owner, sponsorKeypair), ownedByOwner(txBytes, owner)).pipe(
          Effect.tapError(() => Effect.sync(() => coins.release(owner)))
        )
        const budget = bcs.TransactionData.parse(txBytes).V1.gasData.budget
        return { txBytes: toBase64(txBytes), sender: owner, sponsor: SuiAddress.make(normalizeSuiAddress(sponsorAddress)), gasBudget: String(budget) }
      })

      const execute = Effect.fn("Sponsorship.execute")(function*(owner: SuiAddress, txBytes: string, signature: string) {
        const sponsorKeypair = yield* sponsorKey
        yield* throttle(owner)
        const bytes = yield* decode("txBytes", txBytes)
        yield* check(bytes, owner, sponsorKeypair)
        yield* ownedByOwner(bytes, owner)
        const signedByOwner = yield* Effect.tryPromise(() => verifyTransactionSignature(bytes, signature, { address: owner })).pipe(
          Effect.as(true),
          Effect.orElseSucceed(() => false)
        )
        if (!signedByOwner) return yield* invalid("signature: not the owner's signature over txBytes")
        // A gas coin version the sponsor already signed for is never signed again: a replay, or a second transaction on it.
        const payment = bcs.TransactionData.parse(bytes).V1.gasData.payment ?? []
        if (!coins.claimSignature(payment, yield* Clock.currentTimeMillis)) return yield* invalid("gasData.payment: already sponsored once")
        const cosigned = yield* Effect.promise(() => sponsorKeypair.signTransaction(bytes))
        const result = yield* Effect.tryPromise({
          try: () => client.core.executeTransaction({ transaction: bytes, signatures: [signature, cosigned.signature], include: { effects: true } }),
          catch: (cause) => invalid(`chain: refused the transaction: ${cause instanceof Error ? cause.message : String(cause)}`)
        })
        coins.release(owner)
        const tx = result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction
        yield* chain(() => client.core.waitForTransaction({ digest: tx.digest }))
        return tx.status.success
          ? { digest: tx.digest, status: "success" as const, error: null }
          : { digest: tx.digest, status: "failure" as const, error: describeExecutionError(tx.status.error) }
      })

      return Sponsorship.of({ sponsor, execute })
    })
  ).pipe(Layer.provide(SponsorKey.layer))
}
