import { Cause, Effect, Exit, Metric, Option } from "effect"
import type { PaidCallRefusal, PaidCallResult } from "../paidCalls/PaidCallRequest.ts"

/** How a paid call came: a signed payment for the gateway to settle, an upfront payment's digest, or none (challenged). */
export type PaidCallFlow = "session" | "sign_first" | "upfront" | "challenge"

export const paidCalls = Metric.counter("gateway_paid_calls_total", {
  description: "Paid calls by flow and outcome: the answer's status class (402, 2xx, 5xx…) or the refusal's reason code",
  incremental: true
})

const answered = (result: PaidCallResult) => {
  switch (result._tag) {
    case "PaymentRequired":
      return "402"
    case "Forwarded":
      return `${Math.floor(result.status / 100)}xx`
    case "MethodNotAllowed":
      return "method_not_allowed"
  }
}

/** The outcome label: bounded, as reason codes are constants of the code, never of the request. */
export const paidCallOutcome = (exit: Exit.Exit<PaidCallResult, PaidCallRefusal>): string => {
  if (Exit.isSuccess(exit)) return answered(exit.value)
  return Option.match(Cause.findErrorOption(exit.cause), {
    onNone: () => (Cause.hasInterruptsOnly(exit.cause) ? "interrupted" : "defect"),
    onSome: (refusal) => refusal.reason
  })
}

/** One paid call counted, from a place that is not an effect (the Node server's own 402s). */
export const countPaidCallUnsafe = (context: Parameters<typeof paidCalls.updateUnsafe>[1], flow: PaidCallFlow, outcome: string) =>
  Metric.withAttributes(paidCalls, { flow, outcome }).updateUnsafe(1, context)

/** Counts the paid call `self` answers or refuses, once it has. */
export const countPaidCall = (flow: PaidCallFlow) => <R>(self: Effect.Effect<PaidCallResult, PaidCallRefusal, R>) =>
  Effect.onExit(self, (exit) => Metric.update(Metric.withAttributes(paidCalls, { flow, outcome: paidCallOutcome(exit) }), 1))
