import { Effect, Layer, Stream } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { LocalLedger } from "../LocalLedger.ts"
import { GrpcFailure } from "./GrpcFailure.ts"
import { dataFrame, type Encoding, encodeChunk, encodingOf, requestMessage, responseContentType, trailerFrame } from "./GrpcWebFrames.ts"
import { nodeMethods } from "./NodeMethods.ts"

/** Where the front is mounted: `new SuiGrpcClient({ baseUrl: origin + "/sui" })`. */
export const GRPC_PREFIX = "/sui"

const internal = () => new GrpcFailure({ code: "INTERNAL", message: "internal error" })

/**
 * The body of a gRPC-web response: each message in a data frame, then the
 * trailers with the call's status (0, or the failure's code and message).
 */
const responseBody = (encoding: Encoding, messages: Stream.Stream<Uint8Array, GrpcFailure>) =>
  messages.pipe(
    Stream.map(dataFrame),
    Stream.concat(Stream.succeed(trailerFrame(undefined))),
    Stream.catchTag("GrpcFailure", (failure) => Stream.succeed(trailerFrame(failure))),
    Stream.catchDefect(() => Stream.succeed(trailerFrame(internal()))),
    Stream.map((bytes) => encodeChunk(encoding, bytes))
  )

/** The frames of a unary answer, as `responseBody` would stream them, in one body. */
const unaryBody = (encoding: Encoding, reply: Effect.Effect<Uint8Array, GrpcFailure>) =>
  reply.pipe(
    Effect.map((message) => [dataFrame(message), trailerFrame(undefined)]),
    Effect.catchTag("GrpcFailure", (failure) => Effect.succeed([trailerFrame(failure)])),
    Effect.catchDefect(() => Effect.succeed([trailerFrame(internal())])),
    Effect.map((frames) => Buffer.concat(frames.map((frame) => encodeChunk(encoding, frame))))
  )

const answer = (ledger: LocalLedger["Service"]) => (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const encoding = encodingOf(request.headers["content-type"])
    if (encoding === undefined) return HttpServerResponse.text("expected application/grpc-web or application/grpc-web-text", { status: 415 })
    const headers = { "content-type": responseContentType(encoding) }
    const path = new URL(request.url, "http://local").pathname.slice(GRPC_PREFIX.length + 1)
    const method = nodeMethods.get(path)
    const body = new Uint8Array(yield* Effect.orElseSucceed(request.arrayBuffer, () => new ArrayBuffer(0)))
    const message = requestMessage(encoding, body)
    const notOneFrame = () => new GrpcFailure({ code: "INVALID_ARGUMENT", message: "the body is not one gRPC-web data frame" })
    // A stream goes out frame by frame; a unary answer is small and whole: one effect, one body.
    if (method?._tag === "ServerStreaming") {
      const messages = message === undefined ? Stream.fail(notOneFrame()) : Stream.provideService(method.call(message), LocalLedger, ledger)
      return HttpServerResponse.stream(responseBody(encoding, messages), { headers })
    }
    const reply = method === undefined
      ? Effect.fail(new GrpcFailure({ code: "UNIMPLEMENTED", message: `${path} is not served by the local ledger` }))
      : message === undefined
      ? Effect.fail(notOneFrame())
      : Effect.provideService(method.call(message), LocalLedger, ledger)
    return HttpServerResponse.uint8Array(yield* unaryBody(encoding, reply), { headers })
  })

/** LocalLedger as Sui's gRPC-web API: `POST /sui/sui.rpc.v2.<Service>/<Method>`, text or binary. */
export const GrpcFront: Layer.Layer<never, never, HttpRouter.HttpRouter | LocalLedger> = Layer.unwrap(
  LocalLedger.useSync((ledger) => HttpRouter.add("POST", `${GRPC_PREFIX}/*`, answer(ledger)))
)

/** The same methods without HTTP, for a `SuiGrpcClient` in this process. */
export { localTransport } from "./LocalTransport.ts"
