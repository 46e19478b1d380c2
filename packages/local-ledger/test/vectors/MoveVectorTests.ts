import { bcs } from "@mysten/sui/bcs"
import { normalizeSuiAddress, toHex } from "@mysten/sui/utils"
import { type GrantWindow, NO_WINDOW, openingWindow, spendInWindow, windowEndMs, WindowKind } from "@gateway/domain/chain/GrantWindow"
import { SESSION_GRACE_MS } from "@gateway/domain/chain/SessionVoucher"
import { nonceBytes, normalizeCoinType, PACKAGE_VERSION, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { deriveObjectId } from "@gateway/chain/ObjectIds"
import { BIG_COIN, GRANT, NO_WINDOW_ARGS, type Outcome, senderOf, SESSION, type Step, U64_MAX, type Vector, WRAPPED_COIN } from "./Vectors.ts"
import { windowTerms } from "./VectorRunner.ts"
import { ADMIN, DELEGATE, OPERATOR, OWNER, RECIPIENT, signVoucher, STRANGER, VOUCHER_KEY, World } from "./World.ts"

/**
 * Renders the vector table as the Move `#[test]`s at the end of
 * `packages/chain/move/tests/spend_account_tests.move`, so that a row and its
 * Move test cannot drift: every field of every step is an argument of a
 * `step_*` helper there, and a success is checked by an `expect_*` helper.
 * `npm run move-vectors` rewrites the block; `Vectors.test.ts` fails while
 * the file's block is not what this renders.
 */

export const MOVE_TESTS_FILE = "packages/chain/move/tests/spend_account_tests.move"
export const BEGIN_MARKER = "// === Generated from packages/local-ledger/test/vectors/Vectors.ts by npm run move-vectors: do not edit ==="
export const END_MARKER = "// === End of generated tests ==="

/** The Clock a row starts at: a fresh World's (Move's test Clock starts at 0, so each test sets it). */
const START_MS = new World().nowMs

/** The Move stand-in of each coin type the rows use (declared in the test file). */
const MOVE_COIN_TYPES: ReadonlyMap<string, string> = new Map([
  [normalizeCoinType(SUI_COIN_TYPE), "SUI"],
  [normalizeCoinType(WRAPPED_COIN), "Wrapper<Y>"],
  [normalizeCoinType(BIG_COIN), "BIG"]
])

/** The test file's address constants; `Vectors.test.ts` checks they hold the World's addresses. */
export const MOVE_ADDRESSES: ReadonlyMap<string, string> = new Map([
  [OWNER, "OWNER"],
  [DELEGATE, "DELEGATE"],
  [STRANGER, "STRANGER"],
  [RECIPIENT, "RECIPIENT"],
  [OPERATOR, "OPERATOR"],
  [ADMIN, "ADMIN"]
])

const MOVE_KINDS = ["KIND_POLICY", "KIND_SPEND", "KIND_OPEN"]

/** A framework abort names no constant in the row: the constant `claim` aborts with. */
const FRAMEWORK_ABORT_CODES: ReadonlyMap<string, string> = new Map([["derived_object::claim", "EObjectAlreadyExists"]])

const moveType = (coinType: string) => {
  const type = MOVE_COIN_TYPES.get(normalizeCoinType(coinType))
  if (type === undefined) throw new Error(`no Move stand-in for coin type ${coinType}: declare one in ${MOVE_TESTS_FILE} and add it here`)
  return type
}

const moveAddress = (address: string) => MOVE_ADDRESSES.get(normalizeSuiAddress(address)) ?? `@${normalizeSuiAddress(address)}`

/** A u64 literal grouped by thousands, as the hand-written tests write them. */
const u64 = (n: bigint) => {
  if (n < 0n || n > U64_MAX) throw new Error(`${n} is not a u64`)
  return n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, "_")
}

/** The nonce as Move bytes: a byte string when printable with nothing to escape (`"`, `\`), hex otherwise. */
const moveBytes = (grantId: string) =>
  /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/.test(grantId)
    ? `b"${grantId}"`
    : `x"${Array.from(nonceBytes(grantId), (b) => b.toString(16).padStart(2, "0")).join("")}"`

const moveKind = (kind: number) => {
  const name = MOVE_KINDS[kind]
  if (name === undefined) throw new Error(`no grant kind ${kind}`)
  return name
}

/** What a `#[test]` attribute says for an outcome: nothing for a success, else the abort it expects. */
export const expectedFailure = (outcome: Outcome): string | undefined => {
  if ("ok" in outcome) return undefined
  if ("abort" in outcome) return `abort_code = spend_account::spend_account::${outcome.abort}`
  const [module] = ("frameworkAbort" in outcome ? outcome.frameworkAbort : outcome.arithmeticError).split("::")
  if ("frameworkAbort" in outcome) {
    const code = FRAMEWORK_ABORT_CODES.get(outcome.frameworkAbort)
    if (code === undefined) throw new Error(`no abort constant known for ${outcome.frameworkAbort}: add it to FRAMEWORK_ABORT_CODES`)
    return `abort_code = sui::${module}::${code}`
  }
  return `arithmetic_error, location = sui::${module}`
}

/**
 * A session's id is what vouchers sign, and Sui derives it from the hash of the transaction that opens it. The
 * generated tests open each session in a transaction of a known hash (`tx_context::new_from_hint`, far above the
 * scenario's own transaction numbers), so the id, and the signatures the rows embed, are known here.
 */
const SESSION_TX_HINT = 1_000_000n

/** The id of a row's `n`th session in Move: `tx_context::derive_id(dummy_tx_hash_with_hint(hint), 0)`. */
export const moveSessionId = (n: number) => {
  const hash = new Uint8Array(32)
  hash.set(bcs.u64().serialize(SESSION_TX_HINT + BigInt(n)).toBytes())
  return deriveObjectId(hash, 0)
}

/** What a row's latest session holds, as the steps so far left it. */
interface SessionTally {
  readonly payee: string
  readonly deposit: bigint
  readonly claimed: bigint
  readonly closeAtMs: bigint
  readonly windowStartMs: bigint
  readonly windowCharged: bigint
}

/** What the steps so far left that the Move calls and checks read: as VectorRunner, the pool is the last created coin type's. */
interface Walk {
  readonly coinType: string
  readonly clockMs: bigint
  readonly poolValues: ReadonlyMap<string, bigint>
  readonly spent: bigint | undefined
  /** The latest grant's window, rolled and spent as `pay` leaves it. */
  readonly window: GrantWindow
  /** How many sessions the row opened, and the latest, until it closes. */
  readonly sessions: number
  readonly session: SessionTally | undefined
  /** What the last step paid the payee, and what its close (if it closed) gave back with what had been claimed. */
  readonly paid: bigint
  readonly closed: { readonly payee: string; readonly claimed: bigint; readonly returned: bigint } | undefined
}

const START: Walk = {
  coinType: normalizeCoinType(SUI_COIN_TYPE),
  clockMs: START_MS,
  poolValues: new Map(),
  spent: undefined,
  window: NO_WINDOW,
  sessions: 0,
  session: undefined,
  paid: 0n,
  closed: undefined
}

const poolValue = (walk: Walk) => walk.poolValues.get(walk.coinType) ?? 0n
const withPoolValue = (walk: Walk, value: bigint) => new Map([...walk.poolValues, [walk.coinType, value]])

const sessionOf = (walk: Walk) => {
  if (walk.session === undefined) throw new Error("no session open")
  return walk.session
}

/** Deposits of `amount` into the session (open or top up): out of the pool, into the grant's spending and window. */
const depositInto = (walk: Walk, amount: bigint, session: Omit<SessionTally, "windowStartMs" | "windowCharged"> & Partial<SessionTally>): Walk => {
  const window = spendInWindow(walk.window, walk.clockMs, amount)
  const windowed = window.kind !== WindowKind.none
  const sameWindow = session.windowStartMs === window.startMs
  return {
    ...walk,
    poolValues: withPoolValue(walk, poolValue(walk) - amount),
    spent: (walk.spent ?? 0n) + amount,
    window,
    session: {
      ...session,
      windowStartMs: windowed ? window.startMs : 0n,
      windowCharged: !windowed ? 0n : sameWindow ? (session.windowCharged ?? 0n) + amount : amount
    }
  }
}

/** A claim up to `cumulative`: pays the difference, if any. */
const claimUpTo = (walk: Walk, cumulative: bigint): Walk => {
  const session = sessionOf(walk)
  if (cumulative <= session.claimed) return { ...walk, paid: 0n }
  return { ...walk, paid: cumulative - session.claimed, session: { ...session, claimed: cumulative } }
}

/** A close: the rest back to the pool and the grant, and to the window it was charged in while that is still current. */
const closeSession = (walk: Walk): Walk => {
  const session = sessionOf(walk)
  const returned = session.deposit - session.claimed
  const { window } = walk
  const refunds = window.kind !== WindowKind.none && window.startMs === session.windowStartMs && walk.clockMs < windowEndMs(window)
  const refund = refunds ? [returned, session.windowCharged, window.spent].reduce((a, b) => (a < b ? a : b)) : 0n
  return {
    ...walk,
    poolValues: withPoolValue(walk, poolValue(walk) + returned),
    spent: (walk.spent ?? 0n) - returned,
    window: { ...window, spent: window.spent - refund },
    session: undefined,
    closed: { payee: session.payee, claimed: session.claimed, returned }
  }
}

/** The state after a session step that succeeded. */
const advanceSession = (walk: Walk, step: Step): Walk => {
  switch (step.op) {
    case "openSession":
      return { ...depositInto(walk, step.deposit, { payee: step.payee ?? RECIPIENT, deposit: step.deposit, claimed: 0n, closeAtMs: 0n }), sessions: walk.sessions + 1 }
    case "topUp": {
      const session = sessionOf(walk)
      return depositInto(walk, step.amount, { ...session, deposit: session.deposit + step.amount })
    }
    case "claim":
      return claimUpTo(walk, step.cumulative)
    case "claimAndClose":
      return closeSession(claimUpTo(walk, step.cumulative))
    case "closeSession":
      return closeSession(walk)
    case "requestClose": {
      const session = sessionOf(walk)
      const requested = walk.clockMs + SESSION_GRACE_MS
      return { ...walk, session: { ...session, closeAtMs: session.closeAtMs === 0n || requested < session.closeAtMs ? requested : session.closeAtMs } }
    }
    default:
      return walk
  }
}

/** The state after a step that succeeded. */
const advance = (walk: Walk, step: Step): Walk => {
  switch (step.op) {
    case "createPool": {
      const coinType = normalizeCoinType(step.coinType ?? SUI_COIN_TYPE)
      return { ...walk, coinType, poolValues: new Map([...walk.poolValues, [coinType, step.amount]]) }
    }
    case "deposit":
      return { ...walk, poolValues: withPoolValue(walk, poolValue(walk) + step.amount) }
    case "withdraw":
      return { ...walk, poolValues: withPoolValue(walk, poolValue(walk) - step.amount) }
    case "pay":
      return {
        ...walk,
        poolValues: withPoolValue(walk, poolValue(walk) - step.amount),
        spent: (walk.spent ?? 0n) + step.amount,
        window: spendInWindow(walk.window, walk.clockMs, step.amount)
      }
    case "createGrant":
      return { ...walk, spent: 0n, window: openingWindow(windowTerms(step.window ?? NO_WINDOW_ARGS), walk.clockMs) }
    case "clock":
      return { ...walk, clockMs: step.ms }
    default:
      return advanceSession(walk, step)
  }
}

/**
 * The pool's value, the latest grant's spent and its window, and the latest session's deposit and claims (none once
 * closed) after `steps`, all succeeding: what a success row's Move check expects.
 */
export const tallyOf = (steps: ReadonlyArray<Step>) => {
  const walk = steps.reduce(advance, START)
  const session = walk.session === undefined ? undefined : { deposit: walk.session.deposit, claimed: walk.session.claimed, closeAtMs: walk.session.closeAtMs }
  return { poolValue: walk.poolValues.get(walk.coinType), spent: walk.spent, window: walk.window, session, sessions: walk.sessions }
}

const moveAddresses = (addresses: ReadonlyArray<string>) => `vector[${addresses.map(moveAddress).join(", ")}]`

const hex = (bytes: Uint8Array) => `x"${toHex(bytes)}"`

/** A claim's signature as the row makes it, over the id the session has in Move. */
const moveSignature = (step: Extract<Step, { op: "claim" | "claimAndClose" }>, walk: Walk) => {
  const voucher = step.voucher ?? {}
  const final = voucher.final ?? step.op === "claimAndClose"
  return hex(signVoucher(voucher.signer ?? "session", voucher.sessionId ?? moveSessionId(walk.sessions - 1), voucher.amount ?? step.cumulative, final))
}

/** The Move call that plays a session step, every field of the step an argument. */
const sessionCallOf = (step: Step, walk: Walk, T: string): string => {
  const sender = moveAddress(senderOf(step))
  switch (step.op) {
    case "openSession": {
      const key = step.voucherKey === "short" ? VOUCHER_KEY.slice(0, 31) : VOUCHER_KEY
      const parties = [sender, moveAddress(step.payee ?? RECIPIENT), moveAddress(step.operator ?? OPERATOR)]
      const args = [...parties, u64(step.deposit), u64(step.expiryMs ?? SESSION.expiryMs), hex(key)]
      const id = [u64(SESSION_TX_HINT + BigInt(walk.sessions)), `@${moveSessionId(walk.sessions)}`]
      return `step_open_session<${T}>(&mut run, ${[...args, ...id].join(", ")});`
    }
    case "topUp":
      return `step_top_up<${T}>(&mut run, ${sender}, ${u64(step.amount)});`
    case "claim":
      return `step_claim<${T}>(&mut run, ${sender}, ${u64(step.cumulative)}, ${moveSignature(step, walk)});`
    case "claimAndClose":
      return `step_claim_and_close<${T}>(&mut run, ${sender}, ${u64(step.cumulative)}, ${moveSignature(step, walk)});`
    case "closeSession":
      return `step_close_session<${T}>(&mut run, ${sender});`
    case "requestClose":
      return `step_request_close<${T}>(&mut run, ${sender});`
    case "migrateSession":
      return `step_migrate_session<${T}>(&mut run, ${sender});`
    case "sessionVersion":
      return `step_session_version<${T}>(&mut run, ${u64(step.version)});`
    default:
      throw new Error(`${step.op} is not a session step`)
  }
}

/** The Move call that plays a step, every field of the step an argument. */
const callOf = (step: Step, walk: Walk): string => {
  const T = moveType(walk.coinType)
  switch (step.op) {
    case "createPool":
      return `step_create_pool<${moveType(step.coinType ?? SUI_COIN_TYPE)}>(&mut run, ${moveAddress(senderOf(step))}, ${u64(step.amount)});`
    case "deposit":
      return `step_deposit<${T}>(&mut run, ${moveAddress(senderOf(step))}, ${u64(step.amount)});`
    case "withdraw":
      return `step_withdraw<${T}>(&mut run, ${moveAddress(senderOf(step))}, ${u64(step.amount)});`
    case "createGrant": {
      const window = step.window ?? NO_WINDOW_ARGS
      const args = [
        moveAddress(senderOf(step)),
        moveBytes(step.grantId ?? GRANT.grantId),
        u64(step.deadlineMs ?? GRANT.deadlineMs),
        u64(step.sessionCap ?? GRANT.sessionCap),
        u64(step.maxPerPayment ?? GRANT.maxPerPayment),
        u64(step.expiryMs ?? GRANT.expiryMs),
        String(window.kind),
        u64(window.periodMs),
        u64(window.limit),
        moveAddresses(step.recipients ?? [])
      ]
      return `step_create_grant<${T}>(&mut run, ${args.join(", ")});`
    }
    case "pay":
      return `step_pay<${T}>(&mut run, ${moveAddress(senderOf(step))}, ${moveAddress(step.recipient ?? RECIPIENT)}, ${u64(step.amount)});`
    case "forgetNonce":
      return `step_forget_nonce<${T}>(&mut run, ${moveAddress(senderOf(step))}, ${moveBytes(step.grantId ?? GRANT.grantId)});`
    case "setVersion":
      return `step_set_version(&mut run, ${moveAddress(senderOf(step))});`
    case "registryVersion":
      return `step_registry_version(&mut run, ${u64(step.version)});`
    case "pause":
    case "resume":
      return `step_${step.op}(&mut run, ${moveAddress(senderOf(step))}, ${moveKind(step.kind ?? 0)});`
    case "revoke":
      // revoke_grant takes no kind: a kind on the row would be silently ignored by both sides.
      if (step.kind !== undefined) throw new Error("revoke takes no kind")
      return `step_revoke(&mut run, ${moveAddress(senderOf(step))});`
    case "migratePool":
      return `step_migrate_pool<${T}>(&mut run, ${moveAddress(senderOf(step))});`
    case "migrateGrant":
      return `step_migrate_grant(&mut run, ${moveAddress(senderOf(step))});`
    case "poolVersion":
      return `step_pool_version<${T}>(&mut run, ${u64(step.version)});`
    case "grantVersion":
      return `step_grant_version(&mut run, ${u64(step.version)});`
    case "clock":
      // Move's test Clock refuses to go back (`set_for_testing` aborts), the World's does not.
      if (step.ms < walk.clockMs) throw new Error(`the Clock cannot go back from ${walk.clockMs} to ${step.ms} in Move`)
      return `step_clock(&mut run, ${u64(step.ms)});`
    default:
      return sessionCallOf(step, walk, T)
  }
}

/** What the grant and the pool hold after a session call, as its `expect_*` checks them. */
const grantAndPool = (after: Walk) => [u64(after.spent ?? 0n), u64(after.window.spent), u64(poolValue(after))]

/** The Move check of a session call's success: the events it emitted, and the state they speak for. */
const sessionExpectationOf = (vector: Vector, after: Walk, events: string): string => {
  const { when } = vector
  const T = moveType(after.coinType)
  const mismatch = () => new Error(`${vector.name}: ${events} cannot follow ${when.op}`)
  const closed = () => {
    if (after.closed === undefined) throw mismatch()
    return after.closed
  }
  switch (events) {
    case "SessionOpened": {
      if (when.op !== "openSession") throw mismatch()
      const key = hex(when.voucherKey === "short" ? VOUCHER_KEY.slice(0, 31) : VOUCHER_KEY)
      const parties = [moveAddress(when.payee ?? RECIPIENT), moveAddress(when.operator ?? OPERATOR)]
      const args = [...parties, u64(when.deposit), u64(when.expiryMs ?? SESSION.expiryMs), key, ...grantAndPool(after)]
      return `expect_session_opened<${T}>(&run, ${args.join(", ")});`
    }
    case "SessionToppedUp":
      if (when.op !== "topUp") throw mismatch()
      return `expect_session_topped_up<${T}>(&run, ${[u64(when.amount), u64(sessionOf(after).deposit), ...grantAndPool(after)].join(", ")});`
    case "SessionClaimed": {
      if (when.op !== "claim") throw mismatch()
      const session = sessionOf(after)
      const args = [moveAddress(session.payee), u64(after.paid), u64(session.claimed), u64(session.deposit - session.claimed)]
      return `expect_session_claimed<${T}>(&run, ${args.join(", ")});`
    }
    case "SessionClosed": {
      if (when.op !== "closeSession" && when.op !== "claimAndClose") throw mismatch()
      const { payee, claimed, returned } = closed()
      return `expect_session_closed<${T}>(&run, ${[moveAddress(payee), u64(claimed), u64(returned), ...grantAndPool(after)].join(", ")});`
    }
    case "SessionClaimed,SessionClosed": {
      if (when.op !== "claimAndClose") throw mismatch()
      const { payee, claimed, returned } = closed()
      const args = [moveAddress(payee), u64(after.paid), u64(claimed), u64(returned), ...grantAndPool(after)]
      return `expect_session_claimed_and_closed<${T}>(&run, ${args.join(", ")});`
    }
    case "SessionCloseRequested":
      if (when.op !== "requestClose") throw mismatch()
      return `expect_session_close_requested<${T}>(&run, ${u64(sessionOf(after).closeAtMs)});`
    default:
      throw mismatch()
  }
}

/** The Move check of a success: the one event the call emitted, and the state it speaks for. */
const expectationOf = (vector: Vector, after: Walk): string | undefined => {
  const { then, when } = vector
  if (!("ok" in then)) return undefined
  if (then.ok === null) return "expect_no_event(&run);"
  if (typeof then.ok !== "string" || then.ok.startsWith("Session")) return sessionExpectationOf(vector, after, String(then.ok))
  const T = moveType(after.coinType)
  const mismatch = () => new Error(`${vector.name}: ${then.ok} cannot follow ${when.op}`)
  switch (then.ok) {
    case "PoolCreated":
      if (when.op !== "createPool") throw mismatch()
      return `expect_pool_created<${T}>(&run, ${moveAddress(senderOf(when))}, ${u64(when.amount)});`
    case "Deposited":
      if (when.op !== "deposit") throw mismatch()
      return `expect_deposited<${T}>(&run, ${u64(when.amount)}, ${u64(poolValue(after))});`
    case "GrantCreated": {
      if (when.op !== "createGrant") throw mismatch()
      const args = [
        moveBytes(when.grantId ?? GRANT.grantId),
        u64(when.sessionCap ?? GRANT.sessionCap),
        u64(when.maxPerPayment ?? GRANT.maxPerPayment),
        u64(when.expiryMs ?? GRANT.expiryMs),
        String(after.window.kind),
        u64(after.window.periodMs),
        u64(after.window.limit),
        u64(after.window.startMs),
        moveAddresses(when.recipients ?? [])
      ]
      return `expect_grant_created<${T}>(&run, ${args.join(", ")});`
    }
    case "GrantRevoked":
      if (when.op !== "revoke") throw mismatch()
      return "expect_grant_revoked(&run);"
    case "GrantPauseSet":
      if (when.op !== "pause" && when.op !== "resume") throw mismatch()
      return `expect_grant_pause_set(&run, ${when.op === "pause"});`
    case "PaymentMade": {
      if (when.op !== "pay" || after.spent === undefined) throw mismatch()
      const args = [moveAddress(when.recipient ?? RECIPIENT), u64(when.amount), u64(after.spent), u64(after.window.spent), u64(poolValue(after))]
      return `expect_payment_made<${T}>(&run, ${args.join(", ")});`
    }
    case "VersionSet":
      if (when.op !== "setVersion") throw mismatch()
      return `expect_version_set(&run, ${u64(PACKAGE_VERSION)});`
    default:
      throw mismatch()
  }
}

/** One row as a Move `#[test]`. */
export const renderMoveTest = (vector: Vector): string => {
  if (!/^[a-z][a-z0-9_]*$/.test(vector.name)) throw new Error(`${vector.name} is not a Move function name`)
  const lines: Array<string> = []
  let walk = START
  for (const step of vector.given) {
    // VectorRunner acts on the owner's pool, the Move steps on the pool created last: the same only if the owner created it.
    if (step.op === "createPool" && senderOf(step) !== OWNER) throw new Error(`${vector.name}: a given createPool must be the owner's`)
    lines.push(callOf(step, walk))
    walk = advance(walk, step)
  }
  const { when } = vector
  if (when.op === "poolVersion" || when.op === "grantVersion" || when.op === "registryVersion" || when.op === "sessionVersion" || when.op === "clock") {
    throw new Error(`${vector.name}: a row's call must be a transaction`)
  }
  lines.push(callOf(when, walk))
  const expectation = expectationOf(vector, advance(walk, when))
  if (expectation !== undefined) lines.push(expectation)
  const failure = expectedFailure(vector.then)
  return [
    failure === undefined ? "#[test]" : `#[test, expected_failure(${failure})]`,
    `fun ${vector.name}() {`,
    `    let mut run = run_begin(${u64(START_MS)});`,
    ...lines.map((line) => `    ${line}`),
    "    run_end(run);",
    "}"
  ].join("\n")
}

/** The whole generated block, markers included. */
export const renderMoveVectorTests = (vectors: ReadonlyArray<Vector>): string => {
  const names = vectors.map((v) => v.name)
  const duplicate = names.find((name, i) => names.indexOf(name) !== i)
  if (duplicate !== undefined) throw new Error(`two rows are named ${duplicate}`)
  return [
    BEGIN_MARKER,
    "//",
    "// One test for each row of the vector table, which the executor runs too:",
    "// the row's steps played with the `step_*` helpers above, from the Clock a",
    "// row's `World` starts at, and its outcome (an `expected_failure`, or an",
    "// `expect_*` check of the one event the call emitted).",
    "",
    vectors.map(renderMoveTest).join("\n\n"),
    "",
    END_MARKER
  ].join("\n")
}

/** Where the generated block lies in the Move file: from the start of its first marker to the end of its last. */
const blockBounds = (file: string) => {
  const start = file.indexOf(BEGIN_MARKER)
  const end = file.indexOf(END_MARKER, start)
  if (start < 0 || end < 0) throw new Error(`${MOVE_TESTS_FILE} has no generated block between "${BEGIN_MARKER}" and "${END_MARKER}"`)
  return { start, end: end + END_MARKER.length }
}

/** The generated block as the Move file holds it now. */
export const generatedBlockOf = (file: string) => {
  const { start, end } = blockBounds(file)
  return file.slice(start, end)
}

/** The Move file with its generated block replaced by `block`. */
export const withGeneratedBlock = (file: string, block: string) => {
  const { start, end } = blockBounds(file)
  return file.slice(0, start) + block + file.slice(end)
}
