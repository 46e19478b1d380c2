import type { SuiClientTypes } from "@mysten/sui/client"
import { AbortCode, MODULE } from "@gateway/domain/chain/SpendAccountModule"

const abortNames = new Map<string, string>(Object.entries(AbortCode).map(([name, code]) => [String(code), name]))

/**
 * The SDK's message for an execution error, led by the `spend_account`
 * abort's name when the module aborted, so a refusal reads as the rule it met
 * (the SDK's text only carries the number).
 */
export const describeExecutionError = (error: SuiClientTypes.ExecutionError) => {
  const abort = error.$kind === "MoveAbort" && error.MoveAbort.location?.module === MODULE ? abortNames.get(error.MoveAbort.abortCode) : undefined
  return abort === undefined ? error.message : `${abort} (${error.message})`
}
