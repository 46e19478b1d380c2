import { GrpcTypes } from "@mysten/sui/grpc"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { GrpcServerLayer, Origin } from "./GrpcServer.ts"

/** One gRPC-web frame: flag, big-endian length, payload. */
const frame = (flag: number, payload: Uint8Array) => {
  const out = new Uint8Array(5 + payload.length)
  out[0] = flag
  new DataView(out.buffer).setUint32(1, payload.length)
  out.set(payload, 5)
  return out
}

const trailer = (status: number, message: string) => frame(0x80, new TextEncoder().encode(`grpc-status:${status}\r\ngrpc-message:${encodeURIComponent(message)}\r\n`))

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

/** POSTs a raw body to a method of the front; answers the response's content type and body bytes. */
const post = (method: string, contentType: string, body: Uint8Array | string) =>
  Effect.gen(function*() {
    const origin = yield* Origin
    return yield* Effect.promise(async () => {
      const response = await fetch(`${origin}/sui/${method}`, { method: "POST", headers: { "content-type": contentType }, body: typeof body === "string" ? body : body.slice().buffer })
      return { contentType: response.headers.get("content-type"), body: new Uint8Array(await response.arrayBuffer()) }
    })
  })

const SERVICE_INFO = "sui.rpc.v2.LedgerService/GetServiceInfo"

layer(GrpcServerLayer)("LocalLedger's gRPC-web front frames every answer as gRPC-web does", (it) => {
  it.effect("a unary answer is its data frame then an OK trailer, binary or base64 frame by frame", () =>
    Effect.gen(function*() {
      const request = frame(0, GrpcTypes.GetServiceInfoRequest.toBinary({}))
      const binary = yield* post(SERVICE_INFO, "application/grpc-web+proto", request)
      assert.strictEqual(binary.contentType, "application/grpc-web+proto")
      const length = new DataView(binary.body.buffer, binary.body.byteOffset).getUint32(1)
      assert.strictEqual(binary.body[0], 0)
      const info = GrpcTypes.GetServiceInfoResponse.fromBinary(binary.body.subarray(5, 5 + length))
      assert.strictEqual(info.server, "gateway-local-ledger")
      assert.deepStrictEqual(binary.body.subarray(5 + length), trailer(0, ""))

      const text = yield* post(SERVICE_INFO, "application/grpc-web-text", base64(request))
      assert.strictEqual(text.contentType, "application/grpc-web-text+proto")
      const expected = base64(binary.body.subarray(0, 5 + length)) + base64(trailer(0, ""))
      assert.strictEqual(new TextDecoder().decode(text.body), expected)
    }))

  it.effect("a failure is its trailer alone: a body that is not one frame, and a method the ledger does not serve", () =>
    Effect.gen(function*() {
      const garbage = yield* post(SERVICE_INFO, "application/grpc-web+proto", new Uint8Array([1, 2]))
      assert.deepStrictEqual(garbage.body, trailer(3, "the body is not one gRPC-web data frame"))

      const unknown = "sui.rpc.v2.LedgerService/NoSuchMethod"
      const unserved = yield* post(unknown, "application/grpc-web-text", base64(frame(0, new Uint8Array())))
      assert.strictEqual(new TextDecoder().decode(unserved.body), base64(trailer(12, `${unknown} is not served by the local ledger`)))

      const notRequest = yield* post(SERVICE_INFO, "application/grpc-web+proto", frame(0, new Uint8Array([0xff, 0xff, 0xff])))
      assert.deepStrictEqual(notRequest.body, trailer(3, `not a ${GrpcTypes.GetServiceInfoRequest.typeName}`))
    }))
})
