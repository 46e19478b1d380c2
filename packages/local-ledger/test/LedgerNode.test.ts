import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { requestSuiFromFaucetV2 } from "@mysten/sui/faucet"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Transaction } from "@mysten/sui/transactions"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schedule, Schema } from "effect"
import { genesisRegistryId, LOCAL_ORIGINAL_ID } from "@gateway/chain/LocalNetwork"
import { JournalEntry } from "../src/LedgerJournal.ts"
import { freePort, launch, listening } from "./LedgerNodeProcess.ts"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

/** A data dir of its own for the scope's lifetime. */
const tempDataDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "ledger-node-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

/** The node's settings for a test: a free port, `dir`, quick checkpoints. */
const envFor = (dir: string) => Effect.map(freePort, (port) => ({ LEDGER_PORT: String(port), LEDGER_DATA_DIR: dir, LEDGER_CHECKPOINT_MS: "20" }))

/** Until the node has put `digest` in a checkpoint; its number. */
const checkpointOf = (client: SuiGrpcClient, digest: string) =>
  promise(() => client.core.getTransaction({ digest })).pipe(
    Effect.map((result) => (result.$kind === "Transaction" ? result.Transaction : result.FailedTransaction).checkpoint),
    Effect.repeat({ schedule: Schedule.spaced("20 millis"), until: (checkpoint) => checkpoint !== null, times: 200 })
  )

describe("npm run ledger: LocalLedger as a node of its own", () => {
  it.live("serves its faucet and gRPC-web API, names what a gateway needs, and replays its journal after a restart", () =>
    Effect.gen(function*() {
      const dir = yield* tempDataDir
      const owner = Ed25519Keypair.generate()
      const payee = Ed25519Keypair.generate().toSuiAddress()

      const before = yield* Effect.scoped(Effect.gen(function*() {
        const { announcement } = yield* listening(yield* envFor(dir))
        assert.deepStrictEqual(announcement.gatewayEnv, {
          SUI_GRPC_URL: `${announcement.listening}/sui`,
          SUI_NETWORK: "localnet",
          SPEND_ACCOUNT_PACKAGE: LOCAL_ORIGINAL_ID,
          SPEND_ACCOUNT_REGISTRY: genesisRegistryId(LOCAL_ORIGINAL_ID)
        })
        const client = new SuiGrpcClient({ network: "localnet", baseUrl: announcement.gatewayEnv.SUI_GRPC_URL })
        const { object: registry } = yield* promise(() => client.core.getObject({ objectId: announcement.gatewayEnv.SPEND_ACCOUNT_REGISTRY }))
        assert.include(registry.type, "::spend_account::Registry")

        const funded = yield* promise(() => requestSuiFromFaucetV2({ host: announcement.listening, recipient: owner.toSuiAddress() }))
        const coinId = funded.coins_sent?.[0]?.id ?? assert.fail("the faucet sent no coin")
        const { object: coin } = yield* promise(() => client.core.getObject({ objectId: coinId }))
        assert.strictEqual(coin.owner.$kind === "AddressOwner" ? coin.owner.AddressOwner : undefined, owner.toSuiAddress())

        const tx = new Transaction()
        const [paid] = tx.splitCoins(tx.gas, [1_000_000_000])
        tx.transferObjects([paid], payee)
        const executed = yield* promise(() => client.core.signAndExecuteTransaction({ transaction: tx, signer: owner }))
        const digest = executed.Transaction?.digest ?? assert.fail("the transfer failed")
        const checkpoint = yield* checkpointOf(client, digest)
        const ownerBalance = (yield* promise(() => client.core.getBalance({ owner: owner.toSuiAddress() }))).balance.balance
        return { announcement, digest, checkpoint, ownerBalance }
      }))

      // One entry per line, every one a journal entry: the faucet's transfer, the payer's, their checkpoints.
      const lines = readFileSync(before.announcement.journal, "utf8").trimEnd().split("\n")
      const tags = lines.map((line) => Schema.decodeUnknownSync(Schema.fromJsonString(JournalEntry))(line)._tag)
      // The faucet's transfer is a transaction too; the timer may checkpoint it before the second one runs.
      assert.deepStrictEqual(tags.filter((tag) => tag !== "Checkpoint"), ["Execute", "Execute"])
      assert.strictEqual(tags.at(-1), "Checkpoint")

      const { announcement } = yield* listening(yield* envFor(dir))
      const client = new SuiGrpcClient({ network: "localnet", baseUrl: announcement.gatewayEnv.SUI_GRPC_URL })
      const { balance } = yield* promise(() => client.core.getBalance({ owner: payee }))
      assert.strictEqual(balance.balance, "1000000000")
      assert.strictEqual((yield* promise(() => client.core.getBalance({ owner: owner.toSuiAddress() }))).balance.balance, before.ownerBalance)
      assert.strictEqual(yield* checkpointOf(client, before.digest), before.checkpoint)
    }))

  it.live("refuses a second process on the same data dir, naming it", () =>
    Effect.gen(function*() {
      const dir = yield* tempDataDir
      yield* listening(yield* envFor(dir))
      const second = yield* launch(yield* envFor(dir))
      if (second._tag !== "Exited") return assert.fail("a second ledger started on the same journal")
      assert.notStrictEqual(second.code, 0)
      assert.include(second.stderr, `LEDGER_DATA_DIR ${dir} is in use`)
    }))
})
