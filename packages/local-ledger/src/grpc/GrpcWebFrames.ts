import { decodeBase64, encodeBase64 } from "@gateway/chain/Base64"
import type { GrpcFailure } from "./GrpcFailure.ts"

/** gRPC-web frame flags: a message, or the trailers that end the response. */
const DATA = 0x00
const TRAILER = 0x80

const frame = (flag: number, payload: Uint8Array) => {
  const out = new Uint8Array(5 + payload.length)
  out[0] = flag
  new DataView(out.buffer).setUint32(1, payload.length)
  out.set(payload, 5)
  return out
}

export const dataFrame = (message: Uint8Array) => frame(DATA, message)

/** The trailer frame: `grpc-status` and a percent-encoded `grpc-message`, as the gRPC-web spec writes them. */
export const trailerFrame = (failure: GrpcFailure | undefined) =>
  frame(
    TRAILER,
    new TextEncoder().encode(failure === undefined ? "grpc-status:0\r\ngrpc-message:\r\n" : `grpc-status:${failure.status}\r\ngrpc-message:${encodeURIComponent(failure.message)}\r\n`)
  )

/** Whether a request is gRPC-web text (base64 frames) or binary. */
export type Encoding = "text" | "binary"

export const encodingOf = (contentType: string | undefined): Encoding | undefined => {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? ""
  if (type.startsWith("application/grpc-web-text")) return "text"
  if (type === "application/grpc-web" || type.startsWith("application/grpc-web+")) return "binary"
  return undefined
}

export const responseContentType = (encoding: Encoding) => (encoding === "text" ? "application/grpc-web-text+proto" : "application/grpc-web+proto")

/** One chunk of the response body: text mode base64-encodes each frame on its own, so chunks decode as they arrive. */
export const encodeChunk = (encoding: Encoding, bytes: Uint8Array) => (encoding === "text" ? new TextEncoder().encode(encodeBase64(bytes)) : bytes)

/** The request's single message: the payload of its first data frame; undefined when the body is not one. */
export const requestMessage = (encoding: Encoding, body: Uint8Array): Uint8Array | undefined => {
  let bytes: Uint8Array
  try {
    bytes = encoding === "text" ? decodeBase64(new TextDecoder().decode(body).trim()) : body
  } catch {
    return undefined
  }
  if (bytes.length < 5 || bytes[0] !== DATA) return undefined
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1)
  return bytes.length >= 5 + length ? bytes.subarray(5, 5 + length) : undefined
}
