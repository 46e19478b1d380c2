import { Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { LocalLedger } from "./LocalLedger.ts"

/** What the local faucet gives per request: 10 SUI. */
export const FAUCET_AMOUNT = 10_000_000_000n

const FaucetRequest = Schema.Struct({ FixedAmountRequest: Schema.Struct({ recipient: Schema.String }) })

/** Sui's faucet v2 protocol (`requestSuiFromFaucetV2`) at `POST /v2/gas`: a transfer from LocalLedger's faucet address. */
export const Faucet: Layer.Layer<never, never, HttpRouter.HttpRouter | LocalLedger> = Layer.unwrap(
  LocalLedger.useSync((ledger) =>
    HttpRouter.add("POST", "/v2/gas", (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const body = yield* Effect.option(request.json)
        const decoded = Option.flatMap(body, Schema.decodeUnknownOption(FaucetRequest))
        // The client reads `status.Failure.internal` on anything but Success.
        if (Option.isNone(decoded)) {
          return HttpServerResponse.jsonUnsafe({ status: { Failure: { internal: "expected {\"FixedAmountRequest\":{\"recipient\":\"0x…\"}}" } } }, { status: 400 })
        }
        const sent = yield* Effect.option(ledger.faucet(decoded.value.FixedAmountRequest.recipient, FAUCET_AMOUNT))
        return Option.match(sent, {
          onNone: () => HttpServerResponse.jsonUnsafe({ status: { Failure: { internal: "the local ledger is unavailable" } } }, { status: 503 }),
          onSome: ({ coin, transaction }) =>
            HttpServerResponse.jsonUnsafe({
              status: "Success",
              coins_sent: [{ amount: Number(FAUCET_AMOUNT), id: coin.id, transferTxDigest: transaction.digest }]
            })
        })
      }))
  )
)
