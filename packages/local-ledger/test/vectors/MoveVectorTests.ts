import { normalizeSuiAddress } from "@mysten/sui/utils"
import { type GrantWindow, NO_WINDOW, openingWindow, spendInWindow } from "@gateway/domain/chain/GrantWindow"
import { nonceBytes, normalizeCoinType, PACKAGE_VERSION, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { BIG_COIN, GRANT, NO_WINDOW_ARGS, type Outcome, senderOf, type Step, U64_MAX, type Vector, WRAPPED_COIN } from "./Vectors.ts"
import { windowTerms } from "./VectorRunner.ts"
import { ADMIN, DELEGATE, OWNER, RECIPIENT, STRANGER, World } from "./World.ts"

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

/** What the steps so far left that the Move calls and checks read: as VectorRunner, the pool is the last created coin type's. */
interface Walk {
  readonly coinType: string
  readonly clockMs: bigint
  readonly poolValues: ReadonlyMap<string, bigint>
  readonly spent: bigint | undefined
  /** The latest grant's window, rolled and spent as `pay` leaves it. */
  readonly window: GrantWindow
}

const START: Walk = { coinType: normalizeCoinType(SUI_COIN_TYPE), clockMs: START_MS, poolValues: new Map(), spent: undefined, window: NO_WINDOW }

const poolValue = (walk: Walk) => walk.poolValues.get(walk.coinType) ?? 0n
const withPoolValue = (walk: Walk, value: bigint) => new Map([...walk.poolValues, [walk.coinType, value]])

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
      return walk
  }
}

/** The pool's value, the latest grant's spent and its window after `steps`, all succeeding: what a success row's Move check expects. */
export const tallyOf = (steps: ReadonlyArray<Step>) => {
  const walk = steps.reduce(advance, START)
  return { poolValue: walk.poolValues.get(walk.coinType), spent: walk.spent, window: walk.window }
}

const moveAddresses = (addresses: ReadonlyArray<string>) => `vector[${addresses.map(moveAddress).join(", ")}]`

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
  }
}

/** The Move check of a success: the one event the call emitted, and the state it speaks for. */
const expectationOf = (vector: Vector, after: Walk): string | undefined => {
  const { then, when } = vector
  if (!("ok" in then)) return undefined
  if (then.ok === null) return "expect_no_event(&run);"
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
  if (when.op === "poolVersion" || when.op === "grantVersion" || when.op === "registryVersion" || when.op === "clock") {
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
