import type { Signer } from "@mysten/sui/cryptography"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { fromBase64 } from "@mysten/sui/utils"
import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Option, type Result } from "effect"
import * as fc from "fast-check"
import { Chain } from "@gateway/chain/Chain"
import { FetchLayer, type GatewayClient, makeApiClient, type withOwner } from "@gateway/client"
import { WindowKind } from "@gateway/domain/chain/GrantWindow"
import type { ChainTransaction } from "@gateway/domain/chain/ChainTransaction"
import { AbortCode, type AbortName, Events, eventType, Structs } from "@gateway/domain/chain/SpendAccountModule"
import { isApiError } from "@gateway/domain/Errors"
import type { DelegatedSignerId, GrantId } from "@gateway/domain/Ids"
import { SuiAddress } from "@gateway/domain/SuiAddress"
import { ClockJumps } from "../support/ClockJumps.ts"
import { amount, createRequest, fundedOwner, SUI } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl, layerTestServer } from "../support/TestServer.ts"

const MINUTE = 60_000
/** A pending grant older than this reads `failed` and its create aborts on chain (the server is configured so). */
const PENDING_TTL_MIN = 15
/** A grant created with an expiry expires this long after its signer was created. */
const EXPIRY_MIN = 30
const BUDGET = 1000n
const PER_PAYMENT = 100n

/** A grant's stored status: what the state table moves. */
type Stored = "pending" | "active" | "pausing" | "paused" | "revoking" | "revoked" | "failed"
/** Its status as read: expiry and the pending window apply on read. */
type View = Stored | "expired"
type Change = "pause" | "resume" | "revoke"
type Action = "finalizeCreate" | "finalizePause" | "finalizeResume" | "finalizeRevoke"
/**
 * What an owner transaction calls: a kind the API handed out, a create with
 * another session cap than was prepared, or a revoke of one of the owner's
 * grant objects that is not the signer's.
 */
type TxKind = "create" | Change | "tamperedCreate" | "strayRevoke"

interface Sent {
  readonly digest: string
  readonly kind: TxKind
  /** The Move abort that failed it, when it failed. */
  readonly abort: AbortName | undefined
  /** The grant object a successful create made. */
  readonly created: string | undefined
  final: boolean
}

interface Flags {
  readonly paused: boolean
  readonly revoked: boolean
}

/** The simple model: one signer with one grant, the owner's transactions, and the chain's grant objects. */
interface Model {
  stored: Stored
  /** The grant object the API bound the grant to. */
  bound: string | undefined
  /** Whether a create with the grant's nonce succeeded on chain: the pool remembers it, so every later one aborts. */
  nonceUsed: boolean
  /** Clock jumps since the signer was created, in whole minutes, so real time never crosses a boundary. */
  elapsedMin: number
  readonly expiryMin: number | undefined
  /** The latest kind the API handed out for each change. */
  readonly held: Map<Change, string>
  readonly sent: Array<Sent>
  /** Digests the server recorded for the grant, with the change each moved. */
  readonly recorded: Map<string, Action | "failCreate">
  /** Every grant object the owner's creates made, with its flags on chain. */
  readonly chain: Map<string, Flags>
}

type Services = TestLedger | Chain | ClockJumps

interface Real {
  readonly run: (effect: Effect.Effect<void, unknown, Services>) => Promise<void>
  readonly client: GatewayClient
  readonly owner: Signer
  readonly asOwner: ReturnType<typeof withOwner>
  readonly id: DelegatedSignerId
  readonly grantId: GrantId
  readonly createKind: string
  /** The same create with a session cap one above the prepared one. */
  readonly tamperedCreateKind: string
  /** Another owner's digests: one never recorded, one recorded for that owner's own grant. */
  readonly foreign: ReadonlyArray<string>
}

type Cmd = fc.AsyncCommand<Model, Real>

const viewOf = (m: Readonly<Model>): View => {
  if (m.expiryMin !== undefined && m.elapsedMin >= m.expiryMin && m.stored !== "revoked" && m.stored !== "failed") return "expired"
  return m.stored === "pending" && m.elapsedMin >= PENDING_TTL_MIN ? "failed" : m.stored
}

/** With one grant, the signer's aggregate is the grant's own status. */
const signerStatusOf = (view: View) => (view === "pending" ? "awaiting_owner_signature" : view)

const matchingAction: Record<TxKind, Action> = {
  create: "finalizeCreate",
  tamperedCreate: "finalizeCreate",
  pause: "finalizePause",
  resume: "finalizeResume",
  revoke: "finalizeRevoke",
  strayRevoke: "finalizeRevoke"
}

/** Which finalize a transaction's Move call can verify for at all. */
const callsFor: Record<Action, ReadonlyArray<TxKind>> = {
  finalizeCreate: ["create", "tamperedCreate"],
  finalizePause: ["pause"],
  finalizeResume: ["resume"],
  finalizeRevoke: ["revoke", "strayRevoke"]
}

/** Where a verified finalize moves the grant; undefined is CONFLICT. Failed is terminal: no create binds a failed grant. */
const afterFinalize = (action: Action, stored: Stored): Stored | undefined => {
  switch (action) {
    case "finalizeCreate":
      return stored === "pending" ? "active" : undefined
    case "finalizePause":
      return stored === "pausing" ? "paused" : undefined
    case "finalizeResume":
      return stored === "paused" ? "active" : undefined
    case "finalizeRevoke":
      return stored === "revoking" ? "revoked" : undefined
  }
}

const eligible: Record<Change, ReadonlyArray<View>> = {
  pause: ["active", "pausing"],
  resume: ["paused"],
  revoke: ["active", "pausing", "paused", "revoking"]
}
const movesTo: Record<Change, Stored> = { pause: "pausing", resume: "paused", revoke: "revoking" }
const nothingTo: Record<Change, string> = { pause: "no_grant_can_be_paused", resume: "no_grant_can_be_resumed", revoke: "no_grant_can_be_revoked" }

type Refusal = { readonly _tag: "Refused"; readonly code: string; readonly reason: RegExp }
const refused = (code: string, reason: RegExp): Refusal => ({ _tag: "Refused", code, reason })
const exactly = (reason: string) => new RegExp(`^${reason}$`)

type PrepareExpected = Refusal | { readonly _tag: "Prepared"; readonly next: Stored; readonly kind: boolean }

const expectPrepare = (m: Readonly<Model>, change: Change): PrepareExpected => {
  const view = viewOf(m)
  if (view === "revoked" || view === "expired" || view === "failed") return refused("CONFLICT", exactly(`signer_is_${view}`))
  if (change !== "revoke" && view === "revoking") return refused("CONFLICT", exactly("signer_is_revoking"))
  if (m.bound !== undefined && eligible[change].includes(view)) return { _tag: "Prepared", next: movesTo[change], kind: true }
  // A grant that never activated has nothing on chain to revoke: it is abandoned at once.
  if (change === "revoke" && m.stored === "pending") return { _tag: "Prepared", next: "failed", kind: false }
  return refused("CONFLICT", exactly(nothingTo[change]))
}

type FinalizeExpected =
  | { readonly _tag: "Finalized"; readonly already: boolean; readonly next: Stored; readonly bind: string | undefined }
  | Refusal
  /** The chain failed it: TX_FAILED, and when it is this grant's own create, the grant is failed and the digest recorded. */
  | { readonly _tag: "TxFailed"; readonly abort: AbortName; readonly failsCreate: boolean }

/** The server's answer to finalizing one of the owner's own transactions, in the order decisions.md gives. */
const expectFinalize = (m: Readonly<Model>, sent: Sent, action: Action): FinalizeExpected => {
  const recorded = m.recorded.get(sent.digest)
  if (recorded === action) return { _tag: "Finalized", already: true, next: m.stored, bind: m.bound }
  // A recorded failed create is verified again; any other recorded digest moves nothing else.
  if (recorded !== undefined && !(recorded === "failCreate" && action === "finalizeCreate")) {
    return refused("CONFLICT", exactly("digest_already_used_for_another_change"))
  }
  if (!sent.final) return refused("NOT_FINAL", exactly("not_checkpointed"))
  if (sent.abort !== undefined) {
    // The chain's record of a failed create wins over the read-time expiry (decisions.md, "Expiry and failure").
    const failsCreate = action === "finalizeCreate" && sent.kind === "create" && recorded === undefined && m.stored === "pending"
    return { _tag: "TxFailed", abort: sent.abort, failsCreate }
  }
  if (!callsFor[action].includes(sent.kind)) return refused("UNVERIFIED", /^target: /)
  if (sent.kind === "tamperedCreate") return refused("UNVERIFIED", /^session_cap: expected 1000, got 1001$/)
  if (sent.kind === "strayRevoke") return refused("UNVERIFIED", /^grant id: /)
  const view = viewOf(m)
  if (view === "expired" || view === "failed") return refused("CONFLICT", exactly(`grant_is_${view}`))
  const next = afterFinalize(action, m.stored)
  if (next === undefined) return refused("CONFLICT", exactly(`grant_is_${m.stored}`))
  return { _tag: "Finalized", already: false, next, bind: action === "finalizeCreate" ? sent.created : m.bound }
}

/** The Move module's abort for an owner transaction against the model's chain, or undefined when it succeeds. */
const abortOf = (m: Readonly<Model>, kind: TxKind, target: Flags | undefined): AbortName | undefined => {
  switch (kind) {
    case "create":
    case "tamperedCreate":
      // The module's order: the deadline, then the nonce, then the grant's own expiry.
      if (m.elapsedMin >= PENDING_TTL_MIN) return "EDeadlinePassed"
      if (m.nonceUsed) return "ENonceUsed"
      return m.expiryMin !== undefined && m.elapsedMin >= m.expiryMin ? "EExpired" : undefined
    case "pause":
      return target?.revoked ? "ERevoked" : target?.paused ? "EAlreadyPaused" : undefined
    case "resume":
      return target?.revoked ? "ERevoked" : target?.paused ? undefined : "ENotPaused"
    case "revoke":
    case "strayRevoke":
      return target?.revoked ? "EAlreadyRevoked" : undefined
  }
}

const flagsAfter = (kind: TxKind, flags: Flags): Flags =>
  kind === "pause" ? { ...flags, paused: true } : kind === "resume" ? { ...flags, paused: false } : { ...flags, revoked: true }

/** The flags the API's status claims for its grant object, once the chain holds no change the API was not told of. */
const claimed = (view: View): Partial<Flags> => {
  switch (view) {
    case "active":
    case "pausing":
      return { paused: false, revoked: false }
    case "paused":
      return { paused: true, revoked: false }
    case "revoking":
      return { revoked: false }
    case "revoked":
      return { revoked: true }
    default:
      return {}
  }
}

/** Every change the owner made to the bound grant on chain has been finalized. */
const settled = (m: Readonly<Model>) =>
  m.sent.every((s) => s.abort !== undefined || !(s.kind === "pause" || s.kind === "resume" || s.kind === "revoke") || m.recorded.has(s.digest))

const describeFailure = (error: unknown) => (isApiError(error) ? `${error.code} ${error.reason}` : String(error))

const assertRefused = <A, E>(result: Result.Result<A, E>, expected: { readonly code: string; readonly reason: RegExp }, what: string) => {
  if (result._tag === "Success") return assert.fail(`${what}: expected ${expected.code}, got success`)
  const error = result.failure
  if (!isApiError(error)) return assert.fail(`${what}: expected ${expected.code}, got ${String(error)}`)
  assert.strictEqual(error.code, expected.code, `${what}: ${error.reason}`)
  assert.match(error.reason, expected.reason, what)
}

/** The error text of a transaction that this abort failed, as the SDK formats Sui's MoveAbort. */
const abortText = (abort: AbortName) => new RegExp(`abort code: ${AbortCode[abort]}(,|$)`)

const grantCreatedIn = (tx: ChainTransaction, originalId: string) => {
  const event = tx.events.find((e) => e.type === eventType(originalId, "GrantCreated"))
  if (event === undefined) return assert.fail(`${tx.digest} made no grant`)
  return Events.GrantCreated.parse(fromBase64(event.bcs)).grant_id
}

/** After every step: the API's view equals the model's, the chain's grant objects equal the model's, and the two agree. */
const agree = (m: Readonly<Model>, r: Real, after: string) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const { delegatedSigner } = yield* r.client.delegatedSigners.get({ params: { id: r.id } }).pipe(r.asOwner)
    const grant = delegatedSigner.grants[0]
    const view = viewOf(m)
    assert.deepStrictEqual(
      { signer: delegatedSigner.status, grant: grant?.status, grantObjectId: grant?.grantObjectId },
      { signer: signerStatusOf(view), grant: view, grantObjectId: m.bound ?? null },
      `API after ${after}`
    )
    for (const [objectId, flags] of m.chain) {
      const { object } = yield* Effect.promise(() => ledger.client.core.getObject({ objectId, include: { content: true } }))
      const onChain = Structs.Grant.parse(object.content)
      const observed = { paused: onChain.paused, revoked: onChain.revoked }
      assert.deepStrictEqual(observed, flags, `chain after ${after}: ${objectId === m.bound ? "the signer's grant" : "another grant"}`)
      if (objectId === m.bound && settled(m)) {
        assert.deepInclude(observed, claimed(view), `the API says ${view}, the chain says ${JSON.stringify(observed)} (after ${after})`)
      }
    }
  })

const checkpoint = (m: Model, r: Real) =>
  Effect.gen(function*() {
    yield* (yield* TestLedger).checkpoint
    for (const s of m.sent) s.final = true
    yield* agree(m, r, "a checkpoint")
  })

/** The owner signs and executes a kind; the chain must succeed or abort exactly as the model says. */
const execute = (m: Model, r: Real, kind: TxKind, txKindBytes: string, target: string | undefined, final: boolean) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const chain = yield* Chain
    const flags = target === undefined ? undefined : m.chain.get(target)
    const abort = abortOf(m, kind, flags)
    // As it is, without a dry run: a kind that aborts must land on chain as a failed transaction.
    const digest = yield* ledger.executeAsIs(txKindBytes, r.owner)
    const tx = yield* chain.getTransaction(digest)
    assert.strictEqual(tx.status, abort === undefined ? "success" : "failure", `executing ${kind}: ${tx.error}`)
    if (abort !== undefined) assert.match(tx.error ?? "", abortText(abort), `executing ${kind}`)
    let created: string | undefined
    if (abort === undefined && (kind === "create" || kind === "tamperedCreate")) {
      created = grantCreatedIn(tx, chain.pkg.originalId)
      m.nonceUsed = true
      m.chain.set(created, { paused: false, revoked: false })
    } else if (abort === undefined && target !== undefined && flags !== undefined) {
      m.chain.set(target, flagsAfter(kind, flags))
    }
    const sent: Sent = { digest, kind, abort, created, final: false }
    m.sent.push(sent)
    yield* agree(m, r, `executing ${kind}`)
    if (final) yield* checkpoint(m, r)
    return sent
  })

const prepareCall = (r: Real, change: Change) => {
  const params = { params: { id: r.id } }
  switch (change) {
    case "pause":
      return r.client.delegatedSigners.preparePause(params).pipe(r.asOwner)
    case "resume":
      return r.client.delegatedSigners.prepareResume(params).pipe(r.asOwner)
    case "revoke":
      return r.client.delegatedSigners.revoke(params).pipe(r.asOwner)
  }
}

/** One prepare step; whether it handed out a kind. */
const prepare = (m: Model, r: Real, change: Change) =>
  Effect.gen(function*() {
    const expected = expectPrepare(m, change)
    const result = yield* Effect.result(prepareCall(r, change))
    let handedOut = false
    if (expected._tag === "Refused") assertRefused(result, expected, `prepare ${change} from ${viewOf(m)}`)
    else {
      if (result._tag === "Failure") return assert.fail(`prepare ${change} from ${viewOf(m)}: ${describeFailure(result.failure)}`)
      m.stored = expected.next
      const prepared = result.success
      assert.strictEqual(prepared.status, signerStatusOf(viewOf(m)), `prepare ${change}: aggregate`)
      assert.strictEqual(prepared.grants.length, expected.kind ? 1 : 0, `prepare ${change}: kinds handed out`)
      const kind = prepared.grants[0]
      if (kind !== undefined) {
        assert.deepStrictEqual({ grantId: kind.grantId, grantObjectId: kind.grantObjectId }, { grantId: r.grantId, grantObjectId: m.bound })
        m.held.set(change, kind.txKindBytes)
        handedOut = true
      }
    }
    yield* agree(m, r, `prepare ${change}`)
    return handedOut
  })

const finalizeCall = (r: Real, action: Action, digest: string) =>
  r.client.delegatedSigners[action]({ params: { id: r.id, grantId: r.grantId }, payload: { digest } }).pipe(r.asOwner)

const finalize = (m: Model, r: Real, digest: string, action: Action, expected: FinalizeExpected) =>
  Effect.gen(function*() {
    const what = `${action} of ${digest} from ${viewOf(m)}`
    const result = yield* Effect.result(finalizeCall(r, action, digest))
    switch (expected._tag) {
      case "Refused":
        assertRefused(result, expected, what)
        break
      case "TxFailed": {
        assertRefused(result, { code: "TX_FAILED", reason: abortText(expected.abort) }, what)
        if (expected.failsCreate) {
          m.stored = "failed"
          m.recorded.set(digest, "failCreate")
        }
        break
      }
      case "Finalized": {
        if (result._tag === "Failure") return assert.fail(`${what}: ${describeFailure(result.failure)}`)
        if (!expected.already) {
          m.stored = expected.next
          m.bound = expected.bind
          m.recorded.set(digest, action)
        }
        const answer = result.success
        assert.deepStrictEqual(
          { alreadyFinalized: answer.alreadyFinalized, status: answer.status, signerStatus: answer.signerStatus, grantObjectId: answer.grantObjectId },
          { alreadyFinalized: expected.already, status: m.stored, signerStatus: signerStatusOf(viewOf(m)), grantObjectId: m.bound },
          what
        )
      }
    }
    yield* agree(m, r, what)
  })

const finalizeSent = (m: Model, r: Real, sent: Sent, action: Action) => finalize(m, r, sent.digest, action, expectFinalize(m, sent, action))

class Prepare implements Cmd {
  readonly change: Change
  constructor(change: Change) {
    this.change = change
  }
  check() {
    return true
  }
  run(m: Model, r: Real) {
    return r.run(Effect.asVoid(prepare(m, r, this.change)))
  }
  toString() {
    return `Prepare(${this.change})`
  }
}

/** The owner executes the create kind, or the latest kind the API handed out for a change, optionally leaving it unfinal. */
class Execute implements Cmd {
  readonly kind: "create" | Change
  readonly final: boolean
  constructor(kind: "create" | Change, final: boolean) {
    this.kind = kind
    this.final = final
  }
  check(m: Readonly<Model>) {
    return this.kind === "create" || m.held.has(this.kind)
  }
  run(m: Model, r: Real) {
    const bytes = this.kind === "create" ? r.createKind : m.held.get(this.kind)
    if (bytes === undefined) return Promise.reject(new Error("no kind held"))
    return r.run(Effect.asVoid(execute(m, r, this.kind, bytes, this.kind === "create" ? undefined : m.bound, this.final)))
  }
  toString() {
    return `Execute(${this.kind}${this.final ? "" : ", not final"})`
  }
}

class Checkpoint implements Cmd {
  check() {
    return true
  }
  run(m: Model, r: Real) {
    return r.run(checkpoint(m, r))
  }
  toString() {
    return "Checkpoint"
  }
}

/** Finalizes one of the owner's transactions, as the change it made or as another. */
class Finalize implements Cmd {
  readonly pick: number
  readonly action: Action | "matching"
  constructor(pick: number, action: Action | "matching") {
    this.pick = pick
    this.action = action
  }
  check(m: Readonly<Model>) {
    return m.sent.length > 0
  }
  run(m: Model, r: Real) {
    const sent = m.sent[this.pick % m.sent.length]
    if (sent === undefined) return Promise.reject(new Error("nothing sent"))
    return r.run(finalizeSent(m, r, sent, this.action === "matching" ? matchingAction[sent.kind] : this.action))
  }
  toString() {
    return `Finalize(#${this.pick}, ${this.action})`
  }
}

/** Finalizes a digest the server already recorded, as the same change or another. */
class Refinalize implements Cmd {
  readonly pick: number
  readonly action: Action | "same"
  constructor(pick: number, action: Action | "same") {
    this.pick = pick
    this.action = action
  }
  check(m: Readonly<Model>) {
    return m.recorded.size > 0
  }
  run(m: Model, r: Real) {
    const entries = [...m.recorded]
    const [digest, recorded] = entries[this.pick % entries.length] ?? []
    const sent = m.sent.find((s) => s.digest === digest)
    if (sent === undefined || recorded === undefined) return Promise.reject(new Error("no recorded digest"))
    const action = this.action !== "same" ? this.action : recorded === "failCreate" ? "finalizeCreate" : recorded
    return r.run(finalizeSent(m, r, sent, action))
  }
  toString() {
    return `Refinalize(#${this.pick}, ${this.action})`
  }
}

/** Another owner's digest, never this owner's to record: verification refuses it by its sender. */
class ForeignFinalize implements Cmd {
  readonly which: number
  readonly action: Action
  constructor(which: number, action: Action) {
    this.which = which
    this.action = action
  }
  check() {
    return true
  }
  run(m: Model, r: Real) {
    const digest = r.foreign[this.which % r.foreign.length]
    if (digest === undefined) return Promise.reject(new Error("no foreign digest"))
    return r.run(finalize(m, r, digest, this.action, refused("FOREIGN_DIGEST", /^sender: expected /)))
  }
  toString() {
    return `ForeignFinalize(${this.which === 0 ? "unrecorded" : "recorded by its owner"}, ${this.action})`
  }
}

/** The owner signs something other than what was prepared and finalizes it as if it were. */
class Tampered implements Cmd {
  readonly variant: "caps" | "strayRevoke"
  constructor(variant: "caps" | "strayRevoke") {
    this.variant = variant
  }
  check(m: Readonly<Model>) {
    return this.variant === "caps" || (m.bound !== undefined && [...m.chain.keys()].some((id) => id !== m.bound))
  }
  run(m: Model, r: Real) {
    if (this.variant === "caps") {
      return r.run(Effect.flatMap(execute(m, r, "tamperedCreate", r.tamperedCreateKind, undefined, true), (sent) => finalizeSent(m, r, sent, "finalizeCreate")))
    }
    const stray = [...m.chain.keys()].find((id) => id !== m.bound)
    if (stray === undefined) return Promise.reject(new Error("no stray grant"))
    return r.run(Effect.gen(function*() {
      const kind = yield* (yield* Chain).buildRevoke({ sender: r.owner.toSuiAddress(), grantObjectId: stray })
      const sent = yield* execute(m, r, "strayRevoke", kind.txKindBytes, stray, true)
      yield* finalizeSent(m, r, sent, "finalizeRevoke")
    }))
  }
  toString() {
    return `Tampered(${this.variant})`
  }
}

/** Time passes: the server's clock and the chain's move together. */
class Jump implements Cmd {
  readonly minutes: number
  constructor(minutes: number) {
    this.minutes = minutes
  }
  check() {
    return true
  }
  run(m: Model, r: Real) {
    const minutes = this.minutes
    return r.run(Effect.gen(function*() {
      yield* (yield* ClockJumps).jump(minutes * MINUTE)
      m.elapsedMin += minutes
      yield* agree(m, r, `a ${minutes} min jump`)
    }))
  }
  toString() {
    return `Jump(${this.minutes} min)`
  }
}

/** The whole create flow: execute the create kind, checkpoint, finalize. */
class Activate implements Cmd {
  check() {
    return true
  }
  run(m: Model, r: Real) {
    return r.run(Effect.flatMap(execute(m, r, "create", r.createKind, undefined, true), (sent) => finalizeSent(m, r, sent, "finalizeCreate")))
  }
  toString() {
    return "Activate"
  }
}

/** A whole change as an owner makes it: prepare, and when a kind is handed out, execute it, checkpoint and finalize. */
class Full implements Cmd {
  readonly change: Change
  constructor(change: Change) {
    this.change = change
  }
  check() {
    return true
  }
  run(m: Model, r: Real) {
    const change = this.change
    return r.run(Effect.gen(function*() {
      if (!(yield* prepare(m, r, change))) return
      const bytes = m.held.get(change)
      if (bytes === undefined) return yield* Effect.die("no kind held")
      const sent = yield* execute(m, r, change, bytes, m.bound, true)
      yield* finalizeSent(m, r, sent, matchingAction[change])
    }))
  }
  toString() {
    return `Full(${this.change})`
  }
}

const actions: ReadonlyArray<Action> = ["finalizeCreate", "finalizePause", "finalizeResume", "finalizeRevoke"]
const changes: ReadonlyArray<Change> = ["pause", "resume", "revoke"]

const commands = fc.commands<Model, Real, false>([
  fc.constant<Cmd>(new Activate()),
  fc.constant<Cmd>(new Activate()),
  // Whole changes come up most, pauses and resumes more than revokes, so runs reach deep states before a revoke ends them.
  fc.constantFrom<Change>("pause", "resume", "pause", "resume", "revoke").map((c): Cmd => new Full(c)),
  fc.constantFrom<Change>("pause", "resume", "pause", "resume", "revoke").map((c): Cmd => new Full(c)),
  fc.constantFrom(...changes).map((c): Cmd => new Prepare(c)),
  fc.record({ kind: fc.constantFrom<"create" | Change>("create", ...changes), final: fc.boolean() }).map(({ kind, final }): Cmd => new Execute(kind, final)),
  fc.constant<Cmd>(new Checkpoint()),
  fc.record({ pick: fc.nat(), action: fc.constantFrom<Action | "matching">("matching", "matching", ...actions) })
    .map(({ pick, action }): Cmd => new Finalize(pick, action)),
  fc.record({ pick: fc.nat(), action: fc.constantFrom<Action | "same">("same", ...actions) }).map(({ pick, action }): Cmd => new Refinalize(pick, action)),
  fc.record({ which: fc.nat({ max: 1 }), action: fc.constantFrom(...actions) }).map(({ which, action }): Cmd => new ForeignFinalize(which, action)),
  fc.constantFrom("caps" as const, "strayRevoke" as const).map((v): Cmd => new Tampered(v)),
  fc.integer({ min: 1, max: 20 }).map((n): Cmd => new Jump(n))
], { maxCommands: 30, size: "max" })

const Env = Layer.mergeAll(
  TestLedger.layer.pipe(
    Layer.provideMerge(layerTestServer({ pendingGrantTtlMs: PENDING_TTL_MIN * MINUTE, sessionTtlMs: 30 * 24 * 60 * MINUTE }))
  ),
  FetchLayer
).pipe(Layer.provideMerge(ClockJumps.layer))

describe("the signer API against a model and the chain", () => {
  layer(Env, { excludeTestServices: true })((it) => {
    it.effect("random command sequences: after every step the API equals the model, and the chain equals both", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const ledger = yield* TestLedger
        const chain = yield* Chain
        const jumps = yield* ClockJumps
        const run = Effect.runPromiseWith(yield* Effect.context<Services>())

        // Another owner's transactions: a spend-account deposit, and a create that owner finalized for its own grant.
        const stranger = yield* fundedOwner(client)
        const deposit = yield* client.spendAccounts.prepare({ payload: { asset: SUI, depositAtomic: amount(10n) } }).pipe(stranger.asOwner)
        const foreignDeposit = yield* ledger.execute(deposit.txKindBytes, stranger.owner)
        const theirs = yield* client.delegatedSigners.create(createRequest(new Ed25519Keypair().toSuiAddress(), "stranger")).pipe(stranger.asOwner)
        const theirGrant = theirs.grants[0]
        if (theirGrant === undefined) return assert.fail("no grant prepared")
        const foreignCreate = yield* ledger.execute(theirGrant.txKindBytes, stranger.owner)
        yield* ledger.checkpoint
        yield* client.delegatedSigners.finalizeCreate({ params: { id: theirs.delegatedSignerId, grantId: theirGrant.grantId }, payload: { digest: foreignCreate } })
          .pipe(stranger.asOwner)

        const setup = (withExpiry: boolean) =>
          Effect.gen(function*() {
            const { owner, asOwner } = yield* fundedOwner(client)
            const createdAt = yield* jumps.now
            const agent = SuiAddress.make(new Ed25519Keypair().toSuiAddress())
            const created = yield* client.delegatedSigners.create({
              headers: { "idempotency-key": "model" },
              payload: {
                agentAddress: agent,
                assetScopes: [{
                  asset: SUI,
                  totalBudgetAtomic: amount(BUDGET),
                  maxPerPaymentAtomic: amount(PER_PAYMENT),
                  ...(withExpiry ? { expiresAt: createdAt + EXPIRY_MIN * MINUTE } : {})
                }]
              }
            }).pipe(asOwner)
            const grant = created.grants[0]
            const pool = yield* chain.findPool(owner.toSuiAddress(), SUI)
            if (grant === undefined || Option.isNone(pool)) return yield* Effect.die("no grant prepared")
            // The prepared create with one cap changed: same nonce, and a deadline no later than the prepared one's.
            const tampered = yield* chain.buildCreateGrant({
              sender: owner.toSuiAddress(),
              pool: pool.value,
              grantId: grant.grantId,
              deadlineMs: BigInt(createdAt + PENDING_TTL_MIN * MINUTE),
              delegate: agent,
              sessionCap: BUDGET + 1n,
              maxPerPayment: PER_PAYMENT,
              expiryMs: BigInt(grant.expiry),
              window: { kind: WindowKind.none },
              recipients: [],
              policyIds: []
            })
            const model: Model = {
              stored: "pending",
              bound: undefined,
              nonceUsed: false,
              elapsedMin: 0,
              expiryMin: withExpiry ? EXPIRY_MIN : undefined,
              held: new Map(),
              sent: [],
              recorded: new Map(),
              chain: new Map()
            }
            const real: Real = {
              run,
              client,
              owner,
              asOwner,
              id: created.delegatedSignerId,
              grantId: grant.grantId,
              createKind: grant.txKindBytes,
              tamperedCreateKind: tampered.txKindBytes,
              foreign: [foreignDeposit, foreignCreate]
            }
            yield* agree(model, real, "create")
            return { model, real }
          })

        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fc.boolean(), commands, (withExpiry, cmds) => fc.asyncModelRun(() => run(setup(withExpiry)), cmds)),
            { seed: 5150, numRuns: 100 }
          )
        )
      }), 240_000)
  })
})
