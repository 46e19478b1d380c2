import { ObjectError } from "@mysten/sui/client"
import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import { RpcError, SuiGrpcClient } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Schedule } from "effect"
import { normalizeCoinType, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { FAUCET_AMOUNT } from "../src/Faucet.ts"
import { FAUCET_ADDRESS } from "../src/FaucetAccount.ts"
import { LocalLedger } from "../src/LocalLedger.ts"
import { Client, ledgerLayer, Origin, promise, transactionOf } from "./LedgerHarness.ts"
import { freePort, listening } from "./LedgerNodeProcess.ts"

/** What a wallet script does with a faucet's answer: the coin it was sent and the digest of the transfer. */
const faucetSent = (host: string, recipient: string) =>
  promise(() => requestSuiFromFaucetV2({ host, recipient })).pipe(
    Effect.map((answer) => answer.coins_sent?.[0] ?? assert.fail("the faucet sent no coin"))
  )

/** `npm run ledger` on a free port, its state in memory, checkpointing every 20 ms: a plain client to its gRPC-web API. */
const ledgerNode = Effect.gen(function*() {
  const port = yield* freePort
  const { announcement } = yield* listening({ LEDGER_PORT: String(port), LEDGER_DATA_DIR: "memory", LEDGER_CHECKPOINT_MS: "20" })
  return { host: announcement.listening, client: new SuiGrpcClient({ network: "localnet", baseUrl: announcement.gatewayEnv.SUI_GRPC_URL }) }
})

describe("LocalLedger as `npm run ledger` serves it, read by a plain SuiGrpcClient", () => {
  it.live("the faucet's digest is a transaction a script can wait for, read, and see checkpointed", () =>
    Effect.gen(function*() {
      const { host, client } = yield* ledgerNode
      const recipient = Ed25519Keypair.generate().toSuiAddress()
      const sent = yield* faucetSent(host, recipient)

      // A short timeout: a digest the node cannot find would otherwise wait out the SDK's minute.
      const waited = yield* promise(() =>
        client.waitForTransaction({ digest: sent.transferTxDigest, timeout: 5_000, include: { effects: true, balanceChanges: true, transaction: true } })
      )
      const tx = transactionOf(waited)
      assert.isTrue(tx.status.success)
      assert.strictEqual(tx.digest, sent.transferTxDigest)
      assert.strictEqual(tx.transaction?.sender, FAUCET_ADDRESS, "sent from the faucet's own address")
      const created = tx.effects?.changedObjects.find((change) => change.objectId === sent.id)
      assert.strictEqual(created?.idOperation, "Created")
      assert.deepInclude(tx.balanceChanges ?? [], { address: recipient, coinType: normalizeCoinType(SUI_COIN_TYPE), amount: FAUCET_AMOUNT.toString() })

      // The node's timer checkpoints it, as it would any transaction.
      const final = yield* promise(() => client.core.getTransaction({ digest: sent.transferTxDigest })).pipe(
        Effect.map(transactionOf),
        Effect.repeat({ schedule: Schedule.spaced("20 millis"), until: (read) => read.checkpoint !== null, times: 200 })
      )
      assert.isNotNull(final.checkpoint)
      assert.isNotNull(final.timestampMs)
    }))

  it.live("an unknown object id is NOT_FOUND, as client.core.getObject reports it", () =>
    Effect.gen(function*() {
      const { client } = yield* ledgerNode
      const missing = `0x${"0dd".padEnd(64, "0")}`
      const error = yield* Effect.flip(Effect.tryPromise({ try: () => client.core.getObject({ objectId: missing }), catch: (error) => error }))
      if (!(error instanceof ObjectError)) return assert.fail(`not an ObjectError: ${String(error)}`)
      assert.strictEqual(error.code, "notExists")
      assert.strictEqual(error.reason, "notFound")
      assert.strictEqual(error.objectId, missing)
      const direct = yield* Effect.flip(Effect.tryPromise({ try: () => client.ledgerService.getObject({ objectId: missing }).response, catch: (error) => error }))
      assert.isTrue(direct instanceof RpcError && direct.code === "NOT_FOUND", String(direct))
    }))
})

// The real clock, so a checkpoint's time is a real one.
layer(ledgerLayer(), { excludeTestServices: true })("LocalLedger with checkpoints on demand, read by a plain SuiGrpcClient over HTTP", (it) => {
  it.effect("a transaction has no checkpoint and no timestamp until a checkpoint includes it; then its checkpoint's", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const ledger = yield* LocalLedger
      const owner = Ed25519Keypair.generate()
      const sent = yield* faucetSent(yield* Origin, owner.toSuiAddress())
      const read = (digest: string) => promise(() => client.core.getTransaction({ digest })).pipe(Effect.map(transactionOf))

      const before = yield* read(sent.transferTxDigest)
      assert.isNull(before.checkpoint)
      assert.isNull(before.timestampMs)
      const raw = yield* promise(() => client.ledgerService.getTransaction({ digest: sent.transferTxDigest, readMask: { paths: ["digest", "checkpoint", "timestamp"] } }).response)
      assert.isUndefined(raw.transaction?.checkpoint)
      assert.isUndefined(raw.transaction?.timestamp)

      // ExecuteTransaction answers as a node does before any checkpoint: no timestamp either.
      const transfer = new Transaction()
      transfer.transferObjects([transfer.splitCoins(transfer.gas, [1_000])], Ed25519Keypair.generate().toSuiAddress())
      const executed = transactionOf(yield* promise(() => client.core.signAndExecuteTransaction({ transaction: transfer, signer: owner })))
      assert.isTrue(executed.status.success)
      assert.isNull(executed.timestampMs)
      assert.isNull(executed.checkpoint)

      const sequenceNumber = yield* ledger.checkpoint
      const checkpoint = (yield* ledger.getCheckpoint(sequenceNumber)) ?? assert.fail("no checkpoint")
      for (const digest of [sent.transferTxDigest, executed.digest]) {
        const after = yield* read(digest)
        assert.strictEqual(after.checkpoint, sequenceNumber.toString())
        assert.strictEqual(after.timestampMs, Number(checkpoint.timestampMs))
      }
    }))
})
