import { GrpcStatusCode } from "@mysten/sui/grpc"
import { Schema } from "effect"

/** The gRPC status codes this server answers with. */
export type GrpcCode = "INVALID_ARGUMENT" | "NOT_FOUND" | "UNIMPLEMENTED" | "UNAVAILABLE" | "INTERNAL"

/** A call that ends with a non-OK gRPC status; `message` is the status message the client shows. */
export class GrpcFailure extends Schema.TaggedError<GrpcFailure>()("GrpcFailure", {
  code: Schema.Literals(["INVALID_ARGUMENT", "NOT_FOUND", "UNIMPLEMENTED", "UNAVAILABLE", "INTERNAL"]),
  message: Schema.String
}) {
  /** The numeric `grpc-status`. */
  get status(): number {
    return GrpcStatusCode[this.code]
  }
}
