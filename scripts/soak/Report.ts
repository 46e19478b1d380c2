import type { Problem } from "../load/Consistency.ts"
import type { Stats } from "../load/Stats.ts"
import type { FaultOutcome } from "./Faults.ts"
import type { LimitCheck } from "./Limits.ts"
import { RECOVERY_BOUND_MS, type Recovery } from "./Recovery.ts"
import { type Lost, type Proxy, REPLICA_LOST } from "./Proxy.ts"
import { describeEnd, type Ended, type Event } from "./Replicas.ts"

/** What the run saw, for the report and its verdict. */
export interface Observed {
  readonly elapsedSeconds: number
  readonly lanesFinished: boolean
  readonly stats: Stats
  readonly books: Proxy["books"]
  readonly consistency: { readonly problems: ReadonlyArray<Problem>; readonly checked: Record<string, number> } | undefined
  readonly limit: LimitCheck | undefined
  readonly recovery: Recovery | undefined
  readonly faults: FaultOutcome
  readonly stops: ReadonlyArray<{ readonly replica: string; readonly end: Ended }>
  readonly t0: number
}

/** A request lost with the SIGKILLed replica within this long of the kill is the kill's; any other is a finding. */
const KILL_WINDOW_S = 5
const SHOWN = 20

const isKills = (o: Observed, lost: Lost) =>
  lost.replica === o.faults.killedName && o.faults.killedAt !== undefined &&
  Math.abs((lost.atMs - o.t0) / 1000 - o.faults.killedAt) <= KILL_WINDOW_S

/** Failed lane steps and burst sign-ins the proxy answered 503 for a request the killed replica took down with it. */
const lostWithKill = (o: Observed, reason: string) => reason.includes(`${REPLICA_LOST} ${o.faults.killedName}`)

/**
 * A paid call lost with the killed replica may leave its payment settling, and the gateway refuses that
 * payer's next sign-first payment (409 `payment_overlaps_unsettled_payment`) until its recovery settles it:
 * a refusal within the recovery's bound after the kill, in a run where a payment was lost with it, is the kill's.
 */
const OVERLAP = "payment_overlaps_unsettled_payment"
const overlapAfterKill = (o: Observed, failure: { readonly failure: { readonly reason: string }; readonly atMs: number }) => {
  const killedAtMs = o.faults.killedAt === undefined ? undefined : o.t0 + o.faults.killedAt * 1000
  const paymentLost = o.books.lost.some((l) => isKills(o, l) && (l.kind.startsWith("GET /v1/pay/") || l.kind === "POST /v1/gas-station"))
  return failure.failure.reason === OVERLAP && paymentLost && killedAtMs !== undefined &&
    failure.atMs >= killedAtMs && failure.atMs <= killedAtMs + RECOVERY_BOUND_MS
}

const killExplains = (o: Observed, failure: { readonly failure: { readonly reason: string }; readonly atMs: number }) =>
  lostWithKill(o, failure.failure.reason) || overlapAfterKill(o, failure)

/** Requests through the proxy by route and status, widest first. */
const requestTable = (books: Proxy["books"]) => {
  const rows = [...books.byKind].map(([kind, statuses]) => ({
    kind,
    total: [...statuses.values()].reduce((a, b) => a + b, 0),
    cells: [...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status}×${n}`).join("  ")
  })).sort((a, b) => b.total - a.total)
  const width = Math.max(4, ...rows.map((r) => r.kind.length))
  return [`  ${"kind".padEnd(width)}  ${"total".padStart(6)}  by status`, ...rows.map((r) => `  ${r.kind.padEnd(width)}  ${String(r.total).padStart(6)}  ${r.cells}`)]
}

const fiveHundreds = (books: Proxy["books"]) => {
  let replicaLost = 0
  let fromReplicas = 0
  let noReplica = 0
  for (const statuses of books.byKind.values()) {
    for (const [status, n] of statuses) {
      if (!status.startsWith("5")) continue
      if (status.includes(REPLICA_LOST)) replicaLost += n
      else if (status.includes("no_replica")) noReplica += n
      else fromReplicas += n
    }
  }
  return { replicaLost, fromReplicas, noReplica }
}

/** Everything that makes the run fail, one line each; empty when it passes. */
export const verdict = (o: Observed) => {
  const reasons: Array<string> = []
  const totals = o.books.totals()
  const unanswered = totals.received - totals.answered
  if (!o.lanesFinished) reasons.push("lanes did not finish: requests without an answer")
  if (unanswered !== 0 || o.books.open.size !== 0) reasons.push(`${unanswered} requests without a complete answer, ${o.books.open.size} still open`)
  const strayLost = o.books.lost.filter((l) => !isKills(o, l))
  const lostLine = (list: ReadonlyArray<Lost>) => list.slice(0, 5).map((l) => `${l.replica} at t=${((l.atMs - o.t0) / 1000).toFixed(1)} s: ${l.kind}, ${l.error}`).join("; ")
  // A graceful drain must lose nothing; docs/operations.md ("a reset at SIGTERM") says why it sometimes does.
  const inDrain = strayLost.filter((l) => l.replica === o.faults.terminatedName)
  const elsewhere = strayLost.filter((l) => l.replica !== o.faults.terminatedName)
  if (inDrain.length > 0) reasons.push(`${inDrain.length} requests reset by ${o.faults.terminatedName} during its SIGTERM drain (${lostLine(inDrain)})`)
  if (elsewhere.length > 0) reasons.push(`${elsewhere.length} requests lost with a replica other than the SIGKILLed one, or away from the kill (${lostLine(elsewhere)})`)
  const fives = fiveHundreds(o.books)
  if (fives.fromReplicas > 0) reasons.push(`${fives.fromReplicas} 5xx answered by replicas themselves`)
  if (fives.noReplica > 0) reasons.push(`${fives.noReplica} requests found no replica accepting`)
  const unexplained = o.stats.allFailures().filter((f) => !killExplains(o, f))
  if (unexplained.length > 0) {
    reasons.push(`${unexplained.length} failed steps the kill does not explain ` +
      `(${unexplained.slice(0, 5).map((f) => `${f.kind} at t=${((f.atMs - o.t0) / 1000).toFixed(1)} s: ${f.failure.status ?? "-"} ${f.failure.code} ${f.failure.reason}`).join("; ")})`)
  }
  if (o.recovery === undefined || o.recovery.left > 0) reasons.push(`sign-first payments left in flight after the gateway's recovery: ${o.recovery?.left ?? "unknown"}`)
  if (o.consistency === undefined) reasons.push("the consistency check did not run")
  else {
    const mismatches = o.consistency.problems.filter((p) => p.explainedBy === undefined || unexplained.length > 0)
    if (mismatches.length > 0) reasons.push(`${mismatches.length} mismatches between acknowledgements, store and chain`)
  }
  if (o.limit === undefined || !o.limit.held) reasons.push("the shared sign-in limit did not hold")
  const strayBurst = o.limit?.other.filter((reason) => !lostWithKill(o, reason)) ?? []
  if (strayBurst.length > 0) reasons.push(`${strayBurst.length} sign-ins of the limit burst failed otherwise than with the killed replica`)
  if (!o.faults.restarted) reasons.push(`${o.faults.killedName} did not come back after its SIGKILL`)
  if (o.faults.terminated?.code !== 0) reasons.push(`${o.faults.terminatedName} did not exit 0 on SIGTERM`)
  for (const stop of o.stops) if (stop.end.code !== 0) reasons.push(`${stop.replica} did not exit 0 on the final SIGTERM (${describeEnd(stop.end)})`)
  return reasons
}

const problemLines = (list: ReadonlyArray<Problem>) =>
  list.slice(0, SHOWN).map((p) => `    ${p.subject}: ${p.detail}${p.explainedBy === undefined ? "" : ` (after ${p.explainedBy})`}`)

const consistencyLines = (o: Observed) => {
  if (o.consistency === undefined) return ["consistency: not checked"]
  const { problems, checked } = o.consistency
  const unexplained = problems.filter((p) => p.explainedBy === undefined)
  const explained = problems.filter((p) => p.explainedBy !== undefined)
  return [
    `paid calls acknowledged: ${checked["paidCalls"]}`,
    `payments in store: ${checked["paymentRows"]} (besides ${checked["released"]} sign-first rows released unpaid: calls in flight when their replica died)`,
    `payments on chain: ${checked["paymentEvents"]}`,
    `signers stored: ${checked["signers"]}; grants: ${checked["grants"]}; lifecycle records: ${checked["transitions"]}`,
    `mismatches: ${unexplained.length}`,
    ...problemLines(unexplained),
    `disagreements left by failed steps: ${explained.length}`,
    ...problemLines(explained)
  ]
}

const limitLine = (limit: LimitCheck | undefined) =>
  limit === undefined
    ? "limit: not checked"
    : `limit held: ${limit.held ? "yes" : "NO"} (SIGN_IN_PER_MINUTE=${limit.limit}, one address, ${limit.attempts} sign-ins at once over the replicas: ` +
      `${limit.accepted} admitted, ${limit.limited} refused 429${limit.other.length > 0 ? `, ${limit.other.length} otherwise (${limit.other.join(", ")})` : ""}; ` +
      `the store counted ${limit.stored.join(" + ") || "nothing"})`

const timelineLines = (events: ReadonlyArray<Event>) => events.map((e) => `  t=${e.atSeconds.toFixed(1).padStart(5)} s  ${e.replica}  ${e.what}`)

/** The consistency report: requests by kind and status, the store against the chain, the limit, the faults. */
export const report = (o: Observed, title: string) => {
  const totals = o.books.totals()
  const fives = fiveHundreds(o.books)
  const reasons = verdict(o)
  return [
    title,
    `ran ${o.elapsedSeconds.toFixed(1)} s`,
    "lane steps:",
    ...o.stats.table(o.elapsedSeconds).map((line) => `  ${line}`),
    ...o.stats.failureLines().map((line) => `    ${line}`),
    "requests through the proxy, by kind and status:",
    ...requestTable(o.books),
    `requests: ${totals.received} received, ${totals.answered} answered, ${totals.received - totals.answered} without an answer ` +
    `(${totals.retries} connections refused and sent to the next replica; by replica: ${[...o.books.byReplica].map(([r, n]) => `${r} ${n}`).join(", ")})`,
    `5xx: ${fives.replicaLost} replica_lost from the proxy (in flight on a replica that died), ${fives.fromReplicas} from replicas, ${fives.noReplica} no replica`,
    ...o.books.lost.map((l) => `  lost on ${l.replica} at t=${((l.atMs - o.t0) / 1000).toFixed(1)} s: ${l.kind} (${l.error}${l.cut ? ", answer cut short" : ""})`),
    o.recovery === undefined
      ? "recovery: not checked"
      : `recovery: ${o.recovery.unsettledAtEnd} sign-first payments in flight when the lanes stopped, ${o.recovery.left} after ${o.recovery.waitedSeconds.toFixed(1)} s of the replicas' own recovery`,
    ...consistencyLines(o),
    limitLine(o.limit),
    "faults:",
    ...timelineLines(o.faults.timeline),
    ...o.stops.map((s) => `  end      ${s.replica}  final SIGTERM: ${describeEnd(s.end)}`),
    reasons.length === 0 ? "soak: PASS" : `soak: FAIL\n${reasons.map((r) => `  - ${r}`).join("\n")}`
  ]
}
