import { GrpcTypes, type RpcTransport, SuiGrpcClient } from "@mysten/sui/grpc"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { type MethodInfo, type RpcOptions, UnaryCall } from "@protobuf-ts/runtime-rpc"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { describeExecutionError } from "@gateway/chain/sui/ExecutionErrorText"
import { cleverAbortCode, cleverErrorOf, derivedObjectAlreadyExists } from "../src/execute/FrameworkAborts.ts"
import { statusProto } from "../src/grpc/LedgerProto.ts"
import { promise } from "./LedgerHarness.ts"

/** Sui's transactional test derived_objects/claim_twice.snap: `claim` at instruction 20, abort code 0xC000_0029_0000_0001. */
const NODE_ABORT_CODE = 13835058231375822849n
const FRAMEWORK = normalizeSuiAddress("0x2")

/** A transport that answers every unary call with `transaction`, through the wire format, as a node's GetTransaction would. */
const answering = (transaction: GrpcTypes.ExecutedTransaction): RpcTransport => ({
  mergeOptions: (options) => ({ ...options }),
  unary<I extends object, O extends object>(method: MethodInfo<I, O>, input: I, options: RpcOptions): UnaryCall<I, O> {
    const response = Promise.resolve(method.O.fromBinary(GrpcTypes.GetTransactionResponse.toBinary({ transaction })))
    const ok = Promise.resolve({ code: "OK", detail: "" })
    return new UnaryCall(method, options.meta ?? {}, input, Promise.resolve({}), response, ok, Promise.resolve({}))
  },
  serverStreaming: () => assert.fail("not streamed"),
  clientStreaming: () => assert.fail("not streamed"),
  duplex: () => assert.fail("not streamed")
})

describe("framework aborts LocalLedger reproduces", () => {
  it("derived_object::claim on a claimed id aborts with the clever code Sui's compiler packs", () => {
    assert.strictEqual(cleverAbortCode({ errorCode: 0, lineNumber: 41, nameIndex: 0, valueIndex: 1 }), NODE_ABORT_CODE)
    assert.deepStrictEqual(derivedObjectAlreadyExists().error, {
      MoveAbort: [{ module: { address: FRAMEWORK, name: "derived_object" }, function: 0, instruction: 20, functionName: "claim" }, NODE_ABORT_CODE]
    })
  })

  it("carries the clever error a full node renders, and no clever error for a plain abort", () => {
    const { error } = derivedObjectAlreadyExists()
    const status = statusProto({ Failure: { error, command: 0 } }, "MoveAbort")
    const details = status.error?.errorDetails
    if (details?.oneofKind !== "abort") return assert.fail("not an abort")
    assert.strictEqual(details.abort.abortCode, NODE_ABORT_CODE)
    assert.deepStrictEqual(details.abort.cleverError, {
      errorCode: 0n,
      lineNumber: 41n,
      constantName: "EObjectAlreadyExists",
      value: { oneofKind: "rendered", rendered: "Derived object is already claimed." }
    })
    const plain = [{ module: { address: FRAMEWORK, name: "derived_object" }, function: 0, instruction: 20, functionName: "claim" }, 0n] as const
    assert.isUndefined(cleverErrorOf([plain[0], plain[1]]))
  })

  it.effect("reads, through the SDK and the gateway's chain adapter, as the constant's name and message at its line", () =>
    Effect.gen(function*() {
      const status = statusProto({ Failure: { error: derivedObjectAlreadyExists().error, command: 1 } }, "MoveAbort")
      const effects = { status, dependencies: [], changedObjects: [], unchangedConsensusObjects: [], unchangedLoadedRuntimeObjects: [] }
      const client = new SuiGrpcClient({ network: "localnet", transport: answering({ digest: "11111111111111111111111111111111", effects, signatures: [], balanceChanges: [] }) })
      const result = yield* promise(() => client.core.getTransaction({ digest: "11111111111111111111111111111111" }))
      const failed = result.FailedTransaction ?? assert.fail("not a failed transaction")
      const error = failed.status.error ?? assert.fail("no error")
      if (error.$kind !== "MoveAbort") return assert.fail(`not a MoveAbort: ${error.$kind}`)
      assert.strictEqual(error.MoveAbort.abortCode, NODE_ABORT_CODE.toString())
      const clever = error.MoveAbort.cleverError
      assert.deepStrictEqual([clever?.errorCode, clever?.lineNumber, clever?.constantName, clever?.constantType, clever?.value], [
        0,
        41,
        "EObjectAlreadyExists",
        undefined,
        "Derived object is already claimed."
      ])
      const expected = `MoveAbort in 2nd command, 'EObjectAlreadyExists': Derived object is already claimed., in '${FRAMEWORK}::derived_object::claim' (line 41)`
      assert.strictEqual(error.message, expected)
      // Not spend_account's own abort, so the gateway keeps the SDK's words, which name the constant.
      assert.strictEqual(describeExecutionError(error), expected)
    }))
})
