import { Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { LocalLedger } from "./LocalLedger.ts"

/** What the local faucet gives per request: 10 SUI. */
export const FAUCET_AMOUNT = 10_000_000_000n

const FaucetRequest = Schema.Struct({ FixedAmountRequest: Schema.Struct({ recipient: Schema.String }) })

/** Sui's faucet v2 protocol (`requestSuiFromFaucetV2`) at `POST /v2/gas`, minting on LocalLedger: local mode and `npm run ledger` only. */
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
        const coin = yield* Effect.option(ledger.mint(decoded.value.FixedAmountRequest.recipient, SUI_COIN_TYPE, FAUCET_AMOUNT))
        return Option.match(coin, {
          onNone: () => HttpServerResponse.jsonUnsafe({ status: { Failure: { internal: "the local ledger is unavailable" } } }, { status: 503 }),
          onSome: (c) =>
            HttpServerResponse.jsonUnsafe({
              status: "Success",
              // A mint is not a transaction on this ledger; the digest names the mint, it cannot be fetched.
              coins_sent: [{ amount: Number(FAUCET_AMOUNT), id: c.id, transferTxDigest: c.previousTransaction }]
            })
        })
      }))
  )
)
