import { Context, Effect, Layer, Option } from "effect"
import { FetchHttpClient, HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { OwnerAuth } from "@gateway/domain/api/OwnerAuth"

/** The `Authorization` value the client sends on owner routes (`Bearer <token>`), if any. */
export class OwnerCredential extends Context.Reference<Option.Option<string>>("@gateway/client/OwnerCredential", {
  defaultValue: () => Option.none()
}) {}

const OwnerAuthClient = HttpApiMiddleware.layerClient(OwnerAuth, ({ next, request }) =>
  Effect.gen(function*() {
    const credential = yield* OwnerCredential
    return yield* next(Option.match(credential, {
      onNone: () => request,
      onSome: (value) => HttpClientRequest.setHeader(request, "authorization", value)
    }))
  }))

export type GatewayClient = HttpApiClient.ForApi<typeof Api>

/** The typed client, derived from the same `Api` definition the server serves. */
export const makeApiClient = (baseUrl: string) =>
  HttpApiClient.make(Api, { baseUrl }).pipe(Effect.provide(OwnerAuthClient))

/** Runs `self` with this owner credential on every owner route it calls. */
export const withOwner = (authorization: string) => Effect.provideService(OwnerCredential, Option.some(authorization))

export const FetchLayer: Layer.Layer<HttpClient.HttpClient> = FetchHttpClient.layer
