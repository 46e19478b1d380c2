import { type ClientWithCoreApi, SimulationError } from "@mysten/sui/client"
import type { Signer } from "@mysten/sui/cryptography"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Transaction, TransactionDataBuilder } from "@mysten/sui/transactions"
import { fromBase64 } from "@mysten/sui/utils"
import { Effect } from "effect"
import { describeExecutionError } from "@gateway/chain/sui/ExecutionErrorText"
import type { SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import type { ExactOffer } from "@gateway/domain/payment/ExactOffer"
import type { ManifestGrant } from "@gateway/domain/payment/OfferVouching"
import { askGasStation, gasStationUrl } from "./GasStationClient.ts"
import { grantPayKind } from "./GrantPayment.ts"
import type { GasOptions } from "./OwnerWallet.ts"
import { PaymentRefused } from "./PaymentRefused.ts"
import type { SignedPayment } from "./SignedPayments.ts"
import { checkSponsoredPayment } from "./SponsoredPaymentCheck.ts"

const refusal = (reason: string) => new PaymentRefused({ reason })

/**
 * The chain's current epoch. A gRPC full node answers `GetEpoch` with the epoch alone; the core API's system
 * state is the fallback for other transports (LocalLedger serves `GetEpoch` without a system state).
 */
export const currentEpoch = (client: ClientWithCoreApi) =>
  Effect.tryPromise({
    try: async () => {
      if (client instanceof SuiGrpcClient) {
        const { response } = await client.ledgerService.getEpoch({ readMask: { paths: ["epoch"] } })
        if (response.epoch?.epoch !== undefined) return response.epoch.epoch
      }
      return BigInt((await client.core.getCurrentSystemState()).systemState.epoch)
    },
    catch: (error) => refusal(`the chain's current epoch could not be read: ${String(error)}`)
  })

/** The whole transaction with the gas station's sponsor paying, checked to be exactly the payment before it is signed. */
const sponsored = (input: {
  readonly client: ClientWithCoreApi
  readonly sender: string
  readonly kind: string
  readonly station: URL
  readonly challengeExpiresAtMs: number
}) =>
  Effect.gen(function*() {
    const [answer, epoch] = yield* Effect.all([
      askGasStation({ url: input.station, transactionKind: input.kind, sender: input.sender }),
      currentEpoch(input.client)
    ], { concurrency: 2 })
    const bytes = yield* Effect.try({ try: () => fromBase64(answer.transaction), catch: () => refusal("gas station: the transaction is not base64") })
    // Security: the station is not trusted with the agent's signature. Anything but the payment sent is refused here.
    const check = checkSponsoredPayment({ transaction: bytes, kind: fromBase64(input.kind), sender: input.sender, latestEpoch: epoch, declared: answer })
    if (!check.ok) return yield* Effect.fail(refusal(`gas station: refused before signing: ${check.reason}`))
    const holdMs = Date.parse(answer.expiresAt)
    return { bytes, expiresAtMs: Number.isNaN(holdMs) ? input.challengeExpiresAtMs : Math.min(input.challengeExpiresAtMs, holdMs) }
  })

/**
 * The whole transaction with the agent paying its own gas, for a gateway that sponsors none: priced and budgeted
 * by the client's dry run (which also refuses a payment that would abort), expiring at the current epoch as the
 * gateway requires, so a payment it holds cannot outlive the epoch it was signed in.
 */
const selfPaid = (input: { readonly client: ClientWithCoreApi; readonly sender: string; readonly kind: string; readonly gas: GasOptions | undefined }) =>
  Effect.gen(function*() {
    const epoch = yield* currentEpoch(input.client)
    const transaction = Transaction.fromKind(fromBase64(input.kind))
    transaction.setSender(input.sender)
    transaction.setExpiration({ Epoch: epoch.toString() })
    if (input.gas?.coins !== undefined) transaction.setGasPayment([...input.gas.coins])
    if (input.gas?.budget !== undefined) transaction.setGasBudget(input.gas.budget)
    return yield* Effect.tryPromise({
      try: () => transaction.build({ client: input.client }),
      catch: (error) =>
        refusal(
          error instanceof SimulationError
            ? `the chain would refuse the payment: ${error.executionError === undefined ? error.message : describeExecutionError(error.executionError)}`
            : `the payment could not be built with the agent's own gas: ${error instanceof Error ? error.message : String(error)}`
        )
    })
  })

/**
 * Signs, without executing, one payment of an `exact` offer through the grant (shape (a) of the scheme: one
 * `spend_account::pay` with the challenge nonce as memo). With `extra.gasStation` the agent needs no SUI: it sends
 * only the payment's `TransactionKind`, and signs the station's answer only once it is checked to be exactly that
 * payment, sent by the agent, gas paid by someone else, with an expiration. Without one it pays its own gas. The
 * signed bytes go to the gateway, which executes them only after the seller answered; the key never leaves.
 */
export const signFirstPayment = (input: {
  readonly pkg: SpendAccountPackage
  readonly signer: Signer
  readonly client: ClientWithCoreApi
  readonly grant: ManifestGrant
  readonly offer: ExactOffer
  readonly amount: bigint
  /** The gateway's origin (of the manifest's `apiBaseUrl`): the only gas station the agent asks. */
  readonly gatewayOrigin: string
  /** Gas coins and budget, used only when the agent pays its own gas. */
  readonly gas?: GasOptions
}): Effect.Effect<SignedPayment, PaymentRefused> =>
  Effect.gen(function*() {
    const { offer, signer } = input
    const sender = signer.toSuiAddress()
    const challengeExpiresAtMs = Date.parse(offer.extra.expiresAt)
    const kind = yield* grantPayKind({ pkg: input.pkg, sender, client: input.client, grant: input.grant, offer, amount: input.amount })
    const { gasStation } = offer.extra
    const built = gasStation === undefined
      ? { bytes: yield* selfPaid({ client: input.client, sender, kind, gas: input.gas }), expiresAtMs: challengeExpiresAtMs }
      : yield* sponsored({
        client: input.client,
        sender,
        kind,
        station: yield* gasStationUrl(gasStation, offer.extra.resourceUrl, input.gatewayOrigin),
        challengeExpiresAtMs
      })
    const { signature, bytes } = yield* Effect.tryPromise({
      try: () => signer.signTransaction(built.bytes),
      catch: (error) => refusal(`the agent's key could not sign the payment: ${String(error)}`)
    })
    return { transaction: bytes, signature, digest: TransactionDataBuilder.getDigestFromBytes(built.bytes), expiresAtMs: built.expiresAtMs }
  }).pipe(Effect.withSpan("SignFirstPayment.sign"))
