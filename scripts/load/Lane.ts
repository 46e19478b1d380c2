import type { ClientWithCoreApi } from "@mysten/sui/client"
import type { Signer } from "@mysten/sui/cryptography"
import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Cause, Effect, Exit, Predicate, Schedule } from "effect"
import { type GatewayClient, signIn, withOwner } from "@gateway/client"
import { makeAgent, type PaidResponse } from "@gateway/client/AgentSdk"
import { executeKind, LedgerUnreachable } from "@gateway/client/OwnerWallet"
import { PositiveAtomicAmount } from "@gateway/domain/Amount"
import { CoinType } from "@gateway/domain/CoinType"
import type { DelegatedSignerId, GrantId, ServiceId } from "@gateway/domain/Ids"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { Answered, ChainStepFailed, describeStatus, type Stats, StepFailed } from "./Stats.ts"

export const SUI = CoinType.make(SUI_COIN_TYPE)
export const amount = (n: bigint) => PositiveAtomicAmount.make(n.toString())

/** The kinds of step, in the order the summary lists them; `chain:` ones are not requests to the gateway. */
export const KINDS = [
  "sign-in",
  "fund prepare",
  "create",
  "finalize create",
  "manifest",
  "pause prepare",
  "pause finalize",
  "resume prepare",
  "resume finalize",
  "paid call",
  "catalog get",
  "catalog list",
  "chain: faucet",
  "chain: execute until final"
] as const
export const isRequest = (kind: string) => !kind.startsWith("chain:")

/** A signer the run created (the gateway acknowledged its create). */
export interface RunSigner {
  readonly id: DelegatedSignerId
  readonly idempotencyKey: string
  readonly grantId: GrantId
  /** Bound by an acknowledged finalize create. */
  grantObjectId: string | undefined
  /** The status its lane's completed steps leave its grant in. */
  expected: "pending" | "active" | "paused"
  /** The flow and step that failed on it; its lane left it alone from then on. */
  failure: { readonly flow: Flow; readonly step: string } | undefined
}

/** The flows that act on a signer: what a failed one can leave behind differs (see Consistency.ts). */
export type Flow = "create" | "pause" | "resume" | "pay"

/** A lifecycle change the gateway acknowledged. */
export interface Transition {
  readonly digest: string
  readonly grantId: GrantId
  readonly action: "finalizeCreate" | "finalizePause" | "finalizeResume"
}

/** A paid call the gateway acknowledged: a 200 whose receipt names the payment's digest. */
export interface PaidCall {
  readonly digest: string
  readonly signer: RunSigner
}

/** Everything one lane did that the consistency check must find in the store and on chain. */
export interface LaneRecord {
  readonly owner: string
  session: ReturnType<typeof withOwner> | undefined
  readonly signers: Array<RunSigner>
  /** Idempotency keys whose create got no answer or an error: such a signer may or may not exist. */
  readonly unacknowledgedKeys: Array<string>
  readonly transitions: Array<Transition>
  readonly paid: Array<PaidCall>
}

export interface LaneContext {
  readonly client: GatewayClient
  /** Where the gateway is: in local mode its faucet serves `/v2/gas`. */
  readonly baseUrl: string
  /** Where the faucet (`/v2/gas`) is when it is not the gateway's: a standalone ledger's origin (the soak's live-mode replicas serve none). */
  readonly faucetUrl?: string
  /** The wallets' view of the ledger: a `SuiGrpcClient` on the gateway's `/sui`, or on a standalone ledger. */
  readonly sui: ClientWithCoreApi
  readonly stats: Stats
  readonly service: { readonly id: ServiceId; readonly resourceUrl: string }
  /** Lanes start no flow after this (ms since epoch); a flow under way runs to its end. */
  readonly deadline: number
}

/** A signer whose lane still drives it: bound, with a manifest its agent pays through. */
interface Live {
  readonly signer: RunSigner
  readonly agent: ReturnType<typeof makeAgent>
  paused: boolean
}

/** The signer a flow acts on, to blame if the flow fails; the flow sets it once the signer exists. */
interface Acting {
  on: { readonly signer: RunSigner; readonly flow: Flow } | undefined
}

/** Ten SUI per request from the gateway's faucet; each key asks twice, enough gas for a whole run. */
const faucetOf = (baseUrl: string) => (recipient: string) =>
  Effect.tryPromise({
    try: () => requestSuiFromFaucetV2({ host: baseUrl, recipient }),
    catch: (cause) => new LedgerUnreachable({ reason: String(cause) })
  }).pipe(
    Effect.filterOrFail((answer) => answer.status === "Success", (answer) => new LedgerUnreachable({ reason: `the faucet refused: ${JSON.stringify(answer.status)}` }))
  )

/** How long a chain step waits for its checkpoint (every 20 ms in the run) before failing. */
const finality = { schedule: Schedule.spaced("10 millis"), times: 500 }

/** A lane that hit a failure waits this long, so a store that is down is not hammered in a tight loop. */
const BACK_OFF = "50 millis"

/** The code and reason of an error body, or what little the body says when it is not one. */
const bodyCode = (text: string) => {
  try {
    const body: unknown = JSON.parse(text)
    if (Predicate.hasProperty(body, "code") && typeof body.code === "string") {
      return { code: body.code, reason: Predicate.hasProperty(body, "reason") && typeof body.reason === "string" ? body.reason : "" }
    }
  } catch {
    // Not JSON: the body itself is the reason below.
  }
  return { code: "no code", reason: text.slice(0, 120) }
}

/** Only a 200 with a receipt for the payment just made is a paid call; any other answer fails by its status and code. */
const settled = (paid: PaidResponse) =>
  Effect.gen(function*() {
    const text = yield* Effect.promise(() => paid.response.text())
    const { status } = paid.response
    if (status === 200 && paid.digest !== undefined && paid.receipt?.success === true && paid.receipt.transaction === paid.digest) {
      return paid.digest
    }
    if (status === 200) return yield* new Answered({ status, code: "no receipt", reason: "a 200 without a receipt for the payment" })
    return yield* new Answered({ status, ...bodyCode(text) })
  })

/** An answer that is well-formed but not what the step must answer. */
const wrong = (kind: string, reason: string) => new Answered({ status: null, code: "unexpected answer", reason: `${kind}: ${reason}` })

/**
 * One client for the whole run: its own owner and agent keys, cycling catalog
 * reads, signer creates and finalizes, pause/resume and paid calls. A failed
 * step is recorded and ends its flow, never the lane; a signer a flow failed
 * on is left as it is (the failure is recorded on it) and the lane moves on
 * to a fresh one. Lanes start flows until the deadline and finish the one under
 * way, so nothing is left in flight by the end of the run.
 */
export const runLane = (ctx: LaneContext, index: number) =>
  Effect.gen(function*() {
    const { client, sui, stats } = ctx
    const owner = new Ed25519Keypair()
    const agentKey = new Ed25519Keypair()
    const faucet = faucetOf(ctx.faucetUrl ?? ctx.baseUrl)
    const record: LaneRecord = { owner: owner.toSuiAddress(), session: undefined, signers: [], unacknowledgedKeys: [], transitions: [], paid: [] }
    const chainStep = (txKindBytes: string, signer: Signer) =>
      stats.step(
        "chain: execute until final",
        Effect.gen(function*() {
          const executed = yield* executeKind(txKindBytes, signer, sui)
          if (executed.status === "failure") return yield* new ChainStepFailed({ code: "chain TX_FAILED", reason: executed.error ?? "failure" })
          // Final once a checkpoint includes it, as a wallet learns it from a full node.
          yield* Effect.tryPromise({
            try: () => sui.core.getTransaction({ digest: executed.digest }),
            catch: (cause) => new LedgerUnreachable({ reason: String(cause) })
          }).pipe(
            Effect.flatMap((result) =>
              (result.Transaction ?? result.FailedTransaction).checkpoint === null
                ? Effect.fail(new ChainStepFailed({ code: "chain not final", reason: executed.digest }))
                : Effect.void
            ),
            Effect.retry(finality)
          )
          return executed.digest
        }),
        { fromLedger: true }
      )

    let minted = false
    let funded = false
    let live: Live | undefined

    const setUp = (as: ReturnType<typeof withOwner> | undefined) =>
      Effect.gen(function*() {
        if (!minted) {
          yield* stats.step(
            "chain: faucet",
            Effect.forEach([owner, owner, agentKey, agentKey], (key) => faucet(key.toSuiAddress()), { discard: true }),
            { fromLedger: true }
          )
          minted = true
        } else if (as === undefined) {
          const session = yield* stats.step("sign-in", signIn(client, owner))
          record.session = withOwner(session.authorization)
        } else {
          const fund = yield* stats.step("fund prepare", client.spendAccounts.prepare({ payload: { asset: SUI, depositAtomic: amount(1_000_000_000n) } }).pipe(as))
          // Signers can be created once the pool's creation is final, which the chain step waits for.
          yield* chainStep(fund.txKindBytes, owner)
          funded = true
        }
      })

    const create = (as: ReturnType<typeof withOwner>, key: string, acting: Acting) =>
      Effect.gen(function*() {
        const created = yield* stats.step(
          "create",
          client.delegatedSigners.create({
            headers: { "idempotency-key": key },
            payload: {
              agentAddress: SuiAddress.make(agentKey.toSuiAddress()),
              assetScopes: [{ asset: SUI, totalBudgetAtomic: amount(1_000_000n), maxPerPaymentAtomic: amount(100n) }]
            }
          }).pipe(
            as,
            Effect.filterOrFail(
              (c) => !c.idempotentReplay && c.grants.length === 1,
              (c) => wrong("create", `${c.grants.length} grants for one scope, idempotentReplay ${c.idempotentReplay} for a fresh key`)
            )
          )
        ).pipe(Effect.tapError(() => Effect.sync(() => record.unacknowledgedKeys.push(key))))
        const [grant] = created.grants
        // Checked above; this only tells the compiler.
        if (grant === undefined) return
        const signer: RunSigner = {
          id: created.delegatedSignerId,
          idempotencyKey: key,
          grantId: grant.grantId,
          grantObjectId: undefined,
          expected: "pending",
          failure: undefined
        }
        record.signers.push(signer)
        acting.on = { signer, flow: "create" }
        const digest = yield* chainStep(grant.txKindBytes, owner)
        const finalized = yield* stats.step(
          "finalize create",
          client.delegatedSigners.finalizeCreate({ params: { id: signer.id, grantId: grant.grantId }, payload: { digest } }).pipe(
            as,
            Effect.filterOrFail(
              (r) => r.status === "active" && !r.alreadyFinalized,
              (r) => wrong("finalize create", `status ${r.status}, alreadyFinalized ${r.alreadyFinalized}`)
            )
          )
        )
        record.transitions.push({ digest, grantId: grant.grantId, action: "finalizeCreate" })
        signer.grantObjectId = finalized.grantObjectId
        signer.expected = "active"
        const manifest = yield* stats.step("manifest", client.delegatedSigners.manifest({ params: { id: signer.id } }).pipe(as))
        live = { signer, agent: makeAgent({ manifest, signer: agentKey, client: sui }), paused: false }
      })

    const toggle = (as: ReturnType<typeof withOwner>, current: Live, acting: Acting) =>
      Effect.gen(function*() {
        const pausing = !current.paused
        const phase = pausing ? "pause" : "resume"
        acting.on = { signer: current.signer, flow: phase }
        const prepared = yield* stats.step(
          `${phase} prepare`,
          (pausing
            ? client.delegatedSigners.preparePause({ params: { id: current.signer.id } })
            : client.delegatedSigners.prepareResume({ params: { id: current.signer.id } })).pipe(
              as,
              Effect.filterOrFail((p) => p.grants.length === 1, (p) => wrong(`${phase} prepare`, `${p.grants.length} grants prepared for one`))
            )
        )
        for (const kind of prepared.grants) {
          const digest = yield* chainStep(kind.txKindBytes, owner)
          const finalize = pausing ? client.delegatedSigners.finalizePause : client.delegatedSigners.finalizeResume
          const want = pausing ? "paused" : "active"
          yield* stats.step(
            `${phase} finalize`,
            finalize({ params: { id: current.signer.id, grantId: kind.grantId }, payload: { digest } }).pipe(
              as,
              Effect.filterOrFail(
                (r) => r.status === want && !r.alreadyFinalized,
                (r) => wrong(`${phase} finalize`, `status ${r.status}, alreadyFinalized ${r.alreadyFinalized}`)
              )
            )
          )
          record.transitions.push({ digest, grantId: kind.grantId, action: pausing ? "finalizePause" : "finalizeResume" })
        }
        current.paused = pausing
        current.signer.expected = pausing ? "paused" : "active"
      })

    const pay = (current: Live, acting: Acting) =>
      Effect.gen(function*() {
        acting.on = { signer: current.signer, flow: "pay" }
        // The gateway's answers come back as responses (see `settled`); the SDK's errors are its own or the ledger's.
        const digest = yield* stats.step("paid call", Effect.flatMap(current.agent.fetchPaid(ctx.service.resourceUrl), settled), { fromLedger: true })
        record.paid.push({ digest, signer: current.signer })
      })

    let i = 0
    while (Date.now() < ctx.deadline) {
      i += 1
      const acting: Acting = { on: undefined }
      const as = record.session
      const roll = (index + i) % 8
      const current = live
      const flow: Effect.Effect<unknown, StepFailed> = !minted || as === undefined || !funded ? setUp(as)
        : current === undefined || roll === 0 ? create(as, `load-${index}-${i}`, acting)
        : roll === 1 ? stats.step("catalog get", client.services.get({ params: { id: ctx.service.id } }))
        : roll === 2 ? stats.step("catalog list", client.services.list({ query: { q: "load" } }))
        : roll === 3 || roll === 6 ? toggle(as, current, acting)
        // A paused grant's payments are the chain's to refuse; the lane spends that turn on its next roll.
        : current.paused ? Effect.void
        : pay(current, acting)
      const exit = yield* Effect.exit(flow)
      if (Exit.isSuccess(exit)) continue
      const error = Cause.squash(exit.cause)
      // Steps record their own failures; anything else is a defect of the lane's own code.
      if (!(error instanceof StepFailed)) stats.unexpected("lane", error)
      const blamed = acting.on
      if (blamed !== undefined) {
        blamed.signer.failure = {
          flow: blamed.flow,
          step: error instanceof StepFailed ? `${error.kind}: ${describeStatus(error.failure)} ${error.failure.reason}` : String(error)
        }
        if (live?.signer === blamed.signer) live = undefined
      }
      yield* Effect.sleep(BACK_OFF)
    }
    return record
  })
