import { Effect, Stream } from "effect"
import type { Unavailable } from "@gateway/domain/Errors"
import type { LocalLedger } from "../LocalLedger.ts"
import { GrpcFailure } from "./GrpcFailure.ts"

/**
 * One gRPC method of the local node, bytes in and bytes out, so the HTTP
 * front and the in-process transport run the very same encoding: a unary
 * method answers once, a server-streaming one answers with a stream.
 */
export type GrpcMethod =
  | {
    readonly _tag: "Unary"
    /** `sui.rpc.v2.<Service>/<Method>` */
    readonly path: string
    readonly call: (request: Uint8Array) => Effect.Effect<Uint8Array, GrpcFailure, LocalLedger>
  }
  | {
    readonly _tag: "ServerStreaming"
    readonly path: string
    readonly call: (request: Uint8Array) => Stream.Stream<Uint8Array, GrpcFailure, LocalLedger>
  }

/** What this front needs of a generated message type (`GrpcTypes.*`). */
export interface MessageCodec<T extends object> {
  readonly typeName: string
  fromBinary(bytes: Uint8Array): T
  toBinary(message: T): Uint8Array
}

/** What this front needs of a generated service descriptor (`GrpcTypes.LedgerService`, …). */
export interface ServiceDescriptor {
  readonly typeName: string
  readonly methods: ReadonlyArray<{ readonly name: string; readonly serverStreaming: boolean }>
}

const unavailable = (error: Unavailable) => new GrpcFailure({ code: "UNAVAILABLE", message: error.message })

const decode = <I extends object>(type: MessageCodec<I>, bytes: Uint8Array) =>
  Effect.try({ try: () => type.fromBinary(bytes), catch: () => new GrpcFailure({ code: "INVALID_ARGUMENT", message: `not a ${type.typeName}` }) })

const pathOf = (service: ServiceDescriptor, name: string, streaming: boolean) => {
  const method = service.methods.find((m) => m.name === name)
  // A typo here is a programming error, found by the first test that builds the table.
  if (method === undefined || method.serverStreaming !== streaming) throw new Error(`${service.typeName} has no ${streaming ? "streaming " : ""}method ${name}`)
  return `${service.typeName}/${name}`
}

export const unary = <I extends object, O extends object>(
  service: ServiceDescriptor,
  name: string,
  input: MessageCodec<I>,
  output: MessageCodec<O>,
  handle: (request: I) => Effect.Effect<O, GrpcFailure | Unavailable, LocalLedger>
): GrpcMethod => ({
  _tag: "Unary",
  path: pathOf(service, name, false),
  call: (request) =>
    decode(input, request).pipe(
      Effect.flatMap(handle),
      Effect.map((response) => output.toBinary(response)),
      Effect.catchTag("UNAVAILABLE", (error) => Effect.fail(unavailable(error)))
    )
})

export const serverStreaming = <I extends object, O extends object>(
  service: ServiceDescriptor,
  name: string,
  input: MessageCodec<I>,
  output: MessageCodec<O>,
  handle: (request: I) => Stream.Stream<O, GrpcFailure | Unavailable, LocalLedger>
): GrpcMethod => ({
  _tag: "ServerStreaming",
  path: pathOf(service, name, true),
  call: (request) =>
    Stream.unwrap(Effect.map(decode(input, request), handle)).pipe(
      Stream.map((response) => output.toBinary(response)),
      Stream.catchTag("UNAVAILABLE", (error) => Stream.fail(unavailable(error)))
    )
})
