import { executionMethods } from "./ExecutionMethods.ts"
import type { GrpcMethod } from "./GrpcMethod.ts"
import { ledgerMethods } from "./LedgerMethods.ts"
import { movePackageMethods } from "./MovePackageMethods.ts"
import { stateMethods } from "./StateMethods.ts"
import { subscriptionMethods } from "./SubscriptionMethods.ts"

/** Every method the local node serves, by `sui.rpc.v2.<Service>/<Method>`; anything else is UNIMPLEMENTED. */
export const nodeMethods: ReadonlyMap<string, GrpcMethod> = new Map(
  [...ledgerMethods, ...stateMethods, ...executionMethods, ...movePackageMethods, ...subscriptionMethods].map((method) => [method.path, method])
)
