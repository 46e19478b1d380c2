import type { ClientWithCoreApi } from "@mysten/sui/client"
import { fromBase64, normalizeSuiAddress } from "@mysten/sui/utils"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { LocalLedger } from "@gateway/local-ledger/LocalLedger"
import type { GatewayClient } from "@gateway/client"
import type { DelegatedSignerView } from "@gateway/domain/DelegatedSigner"
import { Events, eventType, grantType, Structs } from "@gateway/domain/chain/SpendAccountModule"
import type { Flow, LaneRecord, RunSigner } from "./Lane.ts"

/**
 * One disagreement between what the gateway acknowledged, what its store
 * holds and what the chain holds. `explainedBy` names the failed step that
 * can leave exactly this behind (a flow stopped half-way, or an answer lost
 * after its write); such a disagreement is still reported, and the failed
 * step already fails the run.
 */
export interface Problem {
  readonly subject: string
  readonly detail: string
  readonly explainedBy: string | undefined
}

/** A PaymentMade event of a final transaction, parsed. */
export interface MadePayment {
  readonly digest: string
  readonly grant: string
  readonly recipient: string
  readonly amount: bigint
}

/**
 * What the check needs of the chain beyond a wallet's reads: the package's
 * original id, a way to make every executed transaction final, and every
 * final PaymentMade, found by reading every checkpoint as an indexer would
 * (no wallet API lists them all). In process it is LocalLedger itself
 * (`ledgerAudit`); the soak reads a standalone ledger over gRPC.
 */
export interface ChainAudit<E> {
  readonly originalId: string
  readonly settle: Effect.Effect<void, E>
  readonly paymentsMade: Effect.Effect<ReadonlyArray<MadePayment>, E>
}

interface CheckInput {
  readonly client: GatewayClient
  /** Objects as a wallet reads them: a `SuiGrpcClient` on the gateway's `/sui` or on the ledger node. */
  readonly sui: ClientWithCoreApi
  readonly lanes: ReadonlyArray<LaneRecord>
  readonly service: { readonly id: string; readonly price: bigint; readonly payTo: string }
}

export interface ConsistencyInput extends CheckInput {
  /** The auditor's own view of the whole ledger: every checkpoint, in process. */
  readonly ledger: LocalLedger["Service"]
}

const address = (a: string) => normalizeSuiAddress(a)

/** A paid call's row once it is done and paid: `forwarded` when it paid first (local mode), `settled` when it was signed first and settled after the forward (live mode's gas station). */
const SUCCEEDED = new Set(["forwarded", "settled"])

/**
 * A sign-first payment is submitted only once its seller answered: a row still `forwarding` (its request died
 * mid-forward) or released as `not_charged` claims nothing on chain, and must have no PaymentMade.
 */
const unsubmitted = (row: { readonly flow: string; readonly status: string }) => row.flow === "sign_first" && (row.status === "forwarding" || row.status === "not_charged")

/** The flow whose finalize writes each lifecycle record. */
const flowOf: Record<string, Flow | undefined> = { finalizeCreate: "create", failCreate: "create", finalizePause: "pause", finalizeResume: "resume" }

const groupBy = <A>(items: ReadonlyArray<A>, key: (a: A) => string) => {
  const groups = new Map<string, Array<A>>()
  for (const item of items) {
    const k = key(item)
    const group = groups.get(k)
    if (group === undefined) groups.set(k, [item])
    else group.push(item)
  }
  return groups
}

const sum = (amounts: ReadonlyArray<bigint>) => amounts.reduce((a, b) => a + b, 0n)

/** The audit of a ledger in this process: a checkpoint now, then every checkpoint's transactions' events. */
export const ledgerAudit = (ledger: LocalLedger["Service"]) => {
  const paymentMade = eventType(ledger.config.pkg.originalId, "PaymentMade")
  const paymentsMade = Effect.gen(function*() {
    const latest = (yield* ledger.latestCheckpoint).sequenceNumber
    const final: Array<string> = []
    for (let sequence = 0n; sequence <= latest; sequence++) final.push(...((yield* ledger.getCheckpoint(sequence))?.transactions ?? []))
    const events = yield* Effect.forEach(final, (digest) =>
      Effect.map(ledger.getTransaction(digest), (tx) =>
        (tx?.events ?? []).filter((event) => event.type === paymentMade).map((event) => parsePaymentMade(digest, fromBase64(event.bcs)))))
    return events.flat()
  })
  return { originalId: ledger.config.pkg.originalId, settle: Effect.asVoid(ledger.checkpoint), paymentsMade }
}

/** A PaymentMade event's BCS contents, with the digest of the transaction that emitted it. */
export const parsePaymentMade = (digest: string, bcs: Uint8Array): MadePayment => {
  const made = Events.PaymentMade.parse(bcs)
  return { digest, grant: address(made.grant_id), recipient: address(made.recipient), amount: BigInt(made.amount) }
}

/** Every signer an owner's session can list, page by page. */
const listAll = (client: GatewayClient, session: NonNullable<LaneRecord["session"]>) =>
  Effect.gen(function*() {
    const views: Array<DelegatedSignerView> = []
    let cursor: string | null = null
    do {
      const page: { readonly delegatedSigners: ReadonlyArray<DelegatedSignerView>; readonly nextCursor: string | null } = yield* client.delegatedSigners.list({ query: cursor === null ? { limit: 200 } : { limit: 200, cursor } }).pipe(session)
      views.push(...page.delegatedSigners)
      cursor = page.nextCursor
    } while (cursor !== null)
    return views
  })

/**
 * After the run: every signer the gateway acknowledged is stored exactly once
 * and nothing else was written for the run's owners; every grant's API status
 * matches its object on chain (active: neither paused nor revoked;
 * paused: paused; revoked: revoked; any other status is a flow left in
 * flight, which finished lanes cannot leave unless a step failed); every
 * acknowledged lifecycle change is recorded once; every acknowledged paid
 * call has exactly one final PaymentMade with its digest, the price, the
 * seller's address and its grant, and one `forwarded` (or sign-first
 * `settled`) payment row; every payment row has its PaymentMade (a sign-first
 * row never submitted has none) and every PaymentMade its row; and each
 * grant's on-chain `spent` equals the sum of its payment rows and of its
 * PaymentMade events.
 */
export const checkConsistency = (input: ConsistencyInput) => checkAgainst({ ...input, audit: ledgerAudit(input.ledger) })

/** `checkConsistency` against any chain the audit reads. */
export const checkAgainst = <E>(input: CheckInput & { readonly audit: ChainAudit<E> }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const { client, audit, sui, lanes, service } = input
    /** A grant object as `sui` serves it, parsed in the module's layout; undefined when there is none of that type. */
    const grantOnChain = (id: string) =>
      Effect.promise(() => sui.core.getObjects({ objectIds: [id], include: { content: true } })).pipe(
        Effect.map(({ objects }) => {
          const object = objects[0]
          return object === undefined || object instanceof Error || object.type !== grantType(audit.originalId)
            ? undefined
            : Structs.Grant.parse(object.content)
        })
      )
    const problems: Array<Problem> = []
    const report = (subject: string, detail: string, leftBy?: { readonly signer: RunSigner | undefined; readonly flow: Flow | undefined }) => {
      const failure = leftBy?.signer?.failure
      problems.push({ subject, detail, explainedBy: failure !== undefined && failure.flow === leftBy?.flow ? failure.step : undefined })
    }

    // A payment whose call failed after paying may still await its checkpoint: make it final so events and objects agree.
    yield* audit.settle

    // Signers: stored once each; an unacknowledged row only from a create whose answer was lost.
    const owners = lanes.map((l) => l.owner)
    const signerRows = owners.length === 0 ? [] : yield* sql<{ id: string; ownerAddress: string; idempotencyKey: string }>`
      SELECT id, owner_address, idempotency_key FROM delegated_signers WHERE owner_address IN ${sql.in(owners)}`
    const rowsById = groupBy(signerRows, (r) => r.id)
    let unacknowledgedCommitted = 0
    for (const lane of lanes) {
      const acknowledged = new Set<string>(lane.signers.map((s) => s.id))
      for (const signer of lane.signers) {
        const rows = rowsById.get(signer.id) ?? []
        if (rows.length !== 1) report(signer.id, `acknowledged create stored ${rows.length} times`)
        for (const row of rows) {
          if (row.ownerAddress !== lane.owner || row.idempotencyKey !== signer.idempotencyKey) {
            report(signer.id, `stored for ${row.ownerAddress} with key ${row.idempotencyKey}, created by ${lane.owner} with ${signer.idempotencyKey}`)
          }
        }
      }
      const laneRows = signerRows.filter((r) => r.ownerAddress === lane.owner)
      for (const [key, rows] of groupBy(laneRows, (r) => r.idempotencyKey)) {
        if (rows.length > 1) report(lane.owner, `idempotency key ${key} stored ${rows.length} times`)
      }
      for (const row of laneRows) {
        if (acknowledged.has(row.id)) continue
        if (lane.unacknowledgedKeys.includes(row.idempotencyKey)) unacknowledgedCommitted += 1
        else report(row.id, `stored with key ${row.idempotencyKey}, which no create of the run used`)
      }
    }

    // Grants: what the API shows, against the store's rows and the chain's objects.
    const views = new Map<string, DelegatedSignerView>()
    for (const lane of lanes) {
      const session = lane.session
      if (session === undefined) continue
      const listed = yield* Effect.result(listAll(client, session))
      if (listed._tag === "Failure") {
        report(lane.owner, `could not list its signers: ${String(listed.failure)}`)
        continue
      }
      const stored = new Set(signerRows.filter((r) => r.ownerAddress === lane.owner).map((r) => r.id))
      for (const view of listed.success) {
        views.set(view.id, view)
        if (!stored.delete(view.id)) report(view.id, "listed by the API, not in the store")
      }
      for (const id of stored) report(id, "in the store, not listed by the API")
    }

    const signerOfGrantObject = new Map<string, RunSigner>()
    const grantObjects: Array<{ id: string; signer: RunSigner }> = []
    let grants = 0
    for (const signer of lanes.flatMap((l) => l.signers)) {
      const view = views.get(signer.id)
      // Missing from the store was reported above.
      if (view === undefined) continue
      if (view.grants.length !== 1) report(signer.id, `${view.grants.length} grants for one scope`)
      for (const grant of view.grants) {
        grants += 1
        const subject = `${signer.id}/${grant.id}`
        if (grant.id !== signer.grantId) report(subject, `the create answered grant ${signer.grantId}`)
        if (signer.grantObjectId !== undefined && grant.grantObjectId !== signer.grantObjectId) {
          report(subject, `bound to ${grant.grantObjectId}, finalize answered ${signer.grantObjectId}`)
        }
        if (signer.failure === undefined && grant.status !== signer.expected) {
          report(subject, `API status ${grant.status}, the lane's acknowledged steps leave it ${signer.expected}`)
        }
        const onChain = grant.grantObjectId === null ? undefined : yield* grantOnChain(grant.grantObjectId)
        if (grant.grantObjectId !== null) {
          signerOfGrantObject.set(address(grant.grantObjectId), signer)
          if (onChain === undefined) report(subject, `bound to ${grant.grantObjectId}, which is no Grant on chain`)
          else grantObjects.push({ id: grant.grantObjectId, signer })
        }
        const chainSays = onChain === undefined ? "no grant object" : `paused ${onChain.paused}, revoked ${onChain.revoked}`
        const agrees = onChain !== undefined && (
          grant.status === "active" ? !onChain.paused && !onChain.revoked
          : grant.status === "paused" ? onChain.paused && !onChain.revoked
          : grant.status === "revoked" ? onChain.revoked
          : false
        )
        // Only these are what a flow stopped half-way leaves: a create not finalized, a pause or a resume executed but not finalized.
        const leftBy = grant.status === "pending" || grant.status === "failed" ? "create"
          : grant.status === "pausing" ? "pause"
          : grant.status === "paused" ? "resume"
          : undefined
        if (!agrees) report(subject, `API status ${grant.status}, chain: ${chainSays}`, { signer, flow: leftBy })
      }
    }

    // Lifecycle changes: each acknowledged finalize recorded once; no record the run was not told of.
    const signerOfGrant = new Map<string, RunSigner>(lanes.flatMap((l) => l.signers.map((s) => [s.grantId, s] as const)))
    const grantIds = [...signerOfGrant.keys()]
    const transitionRows = grantIds.length === 0 ? [] : yield* sql<{ digest: string; grantId: string; action: string }>`
      SELECT digest, grant_id, action FROM grant_transitions WHERE grant_id IN ${sql.in(grantIds)}`
    const transitionsByDigest = groupBy(transitionRows, (r) => r.digest)
    const acknowledgedTransitions = lanes.flatMap((l) => l.transitions)
    for (const t of acknowledgedTransitions) {
      const rows = transitionsByDigest.get(t.digest) ?? []
      if (rows.length !== 1 || rows.some((r) => r.grantId !== t.grantId || r.action !== t.action)) {
        report(t.digest, `acknowledged ${t.action} of ${t.grantId}, stored as [${rows.map((r) => `${r.action} ${r.grantId}`).join(", ")}]`)
      }
    }
    const acknowledgedDigests = new Set(acknowledgedTransitions.map((t) => t.digest))
    for (const row of transitionRows) {
      if (!acknowledgedDigests.has(row.digest)) {
        // A finalize whose answer was lost after its write.
        report(row.digest, `${row.action} of ${row.grantId} stored, never acknowledged`, { signer: signerOfGrant.get(row.grantId), flow: flowOf[row.action] })
      }
    }

    // Payments: the gateway's acknowledgements, its rows and the chain's PaymentMade events, every final one,
    // found by reading every checkpoint as an indexer would.
    const events = yield* audit.paymentsMade
    const eventsByDigest = groupBy(events, (e) => e.digest)
    const paymentRows = (yield* sql<{ digest: string; grantObjectId: string; amount: string; status: string; upstreamStatus: number | null; flow: string }>`
      SELECT digest, grant_object_id, amount, status, upstream_status, flow FROM payments WHERE service_id = ${service.id}`)
      .map((r) => ({ ...r, grant: address(r.grantObjectId), amount: BigInt(r.amount) }))
    const rowsByDigest = groupBy(paymentRows, (r) => r.digest)
    const acknowledgedPaid = lanes.flatMap((l) => l.paid)
    for (const [digest, calls] of groupBy(acknowledgedPaid, (p) => p.digest)) {
      const signer = calls[0]?.signer
      if (calls.length > 1) report(digest, `${calls.length} paid calls acknowledged with one payment`)
      const grant = signer?.grantObjectId === undefined ? undefined : address(signer.grantObjectId)
      const made = eventsByDigest.get(digest) ?? []
      if (made.length !== 1) report(digest, `acknowledged paid call with ${made.length} final PaymentMade`)
      for (const e of made) {
        if (e.amount !== service.price || e.recipient !== address(service.payTo) || e.grant !== grant) {
          report(digest, `PaymentMade of ${e.amount} to ${e.recipient} from ${e.grant}; expected ${service.price} to ${service.payTo} from ${grant}`)
        }
      }
      const rows = rowsByDigest.get(digest) ?? []
      if (rows.length !== 1) report(digest, `acknowledged paid call stored ${rows.length} times`)
      for (const row of rows) {
        if (!SUCCEEDED.has(row.status) || row.upstreamStatus !== 200 || row.amount !== service.price || row.grant !== grant) {
          report(digest, `stored ${row.status} (upstream ${row.upstreamStatus}) for ${row.amount} from ${row.grant}`)
        }
      }
    }
    const acknowledgedPayments = new Set(acknowledgedPaid.map((p) => p.digest))
    let released = 0
    for (const row of paymentRows) {
      const signer = signerOfGrantObject.get(row.grant)
      const made = eventsByDigest.get(row.digest) ?? []
      if (unsubmitted(row)) {
        // An acknowledged call's row was checked above; this one must simply never have reached the chain.
        if (made.length > 0) report(row.digest, `stored ${row.status} (never submitted), yet ${made.length} PaymentMade`)
        else if (row.status === "forwarding") report(row.digest, "sign-first payment still forwarding: neither settled nor released", { signer, flow: "pay" })
        else released += 1
        continue
      }
      if (!acknowledgedPayments.has(row.digest)) report(row.digest, `payment stored ${row.status}, its call never acknowledged`, { signer, flow: "pay" })
      if (made.length !== 1 || made.some((e) => e.amount !== row.amount || e.grant !== row.grant)) {
        report(row.digest, `payment stored for ${row.amount} from ${row.grant}, ${made.length} matching PaymentMade`)
      }
    }
    for (const e of events) {
      if (!rowsByDigest.has(e.digest)) report(e.digest, `PaymentMade of ${e.amount} from ${e.grant} never stored`, { signer: signerOfGrantObject.get(e.grant), flow: "pay" })
    }
    const rowsByGrant = groupBy(paymentRows.filter((r) => !unsubmitted(r)), (r) => r.grant)
    const eventsByGrant = groupBy(events, (e) => e.grant)
    for (const { id, signer } of grantObjects) {
      const onChain = yield* grantOnChain(id)
      const spent = onChain === undefined ? undefined : BigInt(onChain.spent)
      const stored = sum((rowsByGrant.get(address(id)) ?? []).map((r) => r.amount))
      const made = sum((eventsByGrant.get(address(id)) ?? []).map((e) => e.amount))
      if (spent !== stored || spent !== made) report(id, `spent ${spent} on chain, ${stored} in payment rows, ${made} in PaymentMade`, { signer, flow: "pay" })
    }

    return {
      problems,
      checked: {
        signers: signerRows.length,
        unacknowledgedCommitted,
        grants,
        transitions: transitionRows.length,
        paidCalls: acknowledgedPaid.length,
        paymentRows: paymentRows.length - released,
        /** Sign-first rows whose seller never answered, released without a payment (the gateway's recovery after a crash). */
        released,
        paymentEvents: events.length
      }
    }
  })
