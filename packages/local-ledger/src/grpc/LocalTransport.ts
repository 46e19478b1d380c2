import { GrpcStatusCode, RpcError, type RpcTransport } from "@mysten/sui/grpc"
import {
  type ClientStreamingCall,
  type DuplexStreamingCall,
  type MethodInfo,
  RpcOutputStreamController,
  type RpcOptions,
  ServerStreamingCall,
  UnaryCall
} from "@protobuf-ts/runtime-rpc"
import { Cause, Effect, Exit, Fiber, Stream } from "effect"
import { LocalLedger } from "../LocalLedger.ts"
import { GrpcFailure } from "./GrpcFailure.ts"
import { nodeMethods } from "./NodeMethods.ts"

const rpcError = (failure: GrpcFailure) => new RpcError(failure.message, GrpcStatusCode[failure.status])

const failureOf = <E>(cause: Cause.Cause<E>) => {
  const error = Cause.squash(cause)
  return error instanceof GrpcFailure ? error : new GrpcFailure({ code: "INTERNAL", message: String(error) })
}

const OK = { code: "OK", detail: "" }

/**
 * An in-process `RpcTransport` to LocalLedger's gRPC methods, for a
 * `SuiGrpcClient` in the same process (`new SuiGrpcClient({ network,
 * transport })`): requests and responses go through `toBinary`/`fromBinary`
 * exactly as over HTTP, without the network.
 */
export const localTransport = Effect.gen(function*() {
  const ledger = yield* LocalLedger

  const settle = <A>(fiber: Fiber.Fiber<A, unknown>, options: RpcOptions) => {
    options.abort?.addEventListener("abort", () => Effect.runFork(Fiber.interrupt(fiber)), { once: true })
    return new Promise<A>((resolve, reject) => {
      fiber.addObserver((exit) => (Exit.isSuccess(exit) ? resolve(exit.value) : reject(rpcError(failureOf(exit.cause)))))
    })
  }

  const open = <I extends object, O extends object>(method: MethodInfo<I, O>, input: I, options: RpcOptions, onMessage: (message: O) => void) => {
    const path = `${method.service.typeName}/${method.name}`
    const served = nodeMethods.get(path)
    const messages = served === undefined
      ? Stream.fail(new GrpcFailure({ code: "UNIMPLEMENTED", message: `${path} is not served by the local ledger` }))
      : served._tag === "Unary"
      ? Stream.fromEffect(served.call(method.I.toBinary(input)))
      : served.call(method.I.toBinary(input))
    const run = Stream.runForEach(Stream.provideService(messages, LocalLedger, ledger), (bytes) => Effect.sync(() => onMessage(method.O.fromBinary(bytes))))
    return settle(Effect.runFork(run), options)
  }

  /** A unary method's one answer, as `open` would deliver it, without a stream around it (what the HTTP front does too). */
  const once = <I extends object, O extends object>(method: MethodInfo<I, O>, input: I, options: RpcOptions): Promise<O> | undefined => {
    const served = nodeMethods.get(`${method.service.typeName}/${method.name}`)
    if (served?._tag !== "Unary") return undefined
    const answer = Effect.map(Effect.provideService(served.call(method.I.toBinary(input)), LocalLedger, ledger), (bytes) => method.O.fromBinary(bytes))
    return settle(Effect.runFork(answer), options)
  }

  const transport: RpcTransport = {
    mergeOptions: (options) => ({ ...options }),
    unary<I extends object, O extends object>(method: MethodInfo<I, O>, input: I, options: RpcOptions): UnaryCall<I, O> {
      let response: O | undefined
      const answer = once(method, input, options) ?? open(method, input, options, (message) => {
        response = message
      }).then(() => response ?? method.O.create())
      const done = answer.then(() => undefined)
      return new UnaryCall(method, options.meta ?? {}, input, Promise.resolve({}), answer, done.then(() => OK), done.then(() => ({})))
    },
    serverStreaming<I extends object, O extends object>(method: MethodInfo<I, O>, input: I, options: RpcOptions): ServerStreamingCall<I, O> {
      const responses = new RpcOutputStreamController<O>()
      const done = open(method, input, options, (message) => responses.notifyMessage(message))
      done.then(() => responses.notifyComplete(), (error: unknown) => responses.notifyError(error instanceof Error ? error : new Error(String(error))))
      return new ServerStreamingCall(method, options.meta ?? {}, input, Promise.resolve({}), responses, done.then(() => OK), done.then(() => ({})))
    },
    clientStreaming<I extends object, O extends object>(method: MethodInfo<I, O>): ClientStreamingCall<I, O> {
      throw new RpcError(`${method.service.typeName}/${method.name} is not served by the local ledger`, GrpcStatusCode[GrpcStatusCode.UNIMPLEMENTED])
    },
    duplex<I extends object, O extends object>(method: MethodInfo<I, O>): DuplexStreamingCall<I, O> {
      throw new RpcError(`${method.service.typeName}/${method.name} is not served by the local ledger`, GrpcStatusCode[GrpcStatusCode.UNIMPLEMENTED])
    }
  }
  return transport
})
