import { GrpcTypes } from "@mysten/sui/grpc"
import { Effect, Stream } from "effect"
import { LocalLedger } from "../LocalLedger.ts"
import { type GrpcMethod, serverStreaming } from "./GrpcMethod.ts"
import { checkpointMessage } from "./LedgerMethods.ts"

export const subscriptionMethods: ReadonlyArray<GrpcMethod> = [
  // Every checkpoint made after the call, as it is made, until the client goes away.
  serverStreaming(GrpcTypes.SubscriptionService, "SubscribeCheckpoints", GrpcTypes.SubscribeCheckpointsRequest, GrpcTypes.SubscribeCheckpointsResponse, (request) =>
    Stream.unwrap(LocalLedger.useSync((ledger) =>
      Stream.mapEffect(ledger.checkpoints, (checkpoint) =>
        Effect.map(checkpointMessage(checkpoint.sequenceNumber, request.readMask), (message): GrpcTypes.SubscribeCheckpointsResponse => ({
          cursor: checkpoint.sequenceNumber,
          checkpoint: message
        })))
    )))
]
