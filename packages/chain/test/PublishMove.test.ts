import type { SuiClientTypes } from "@mysten/sui/client"
import { Transaction } from "@mysten/sui/transactions"
import { normalizeSuiAddress, toBase64 } from "@mysten/sui/utils"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  gatewayEnvironment,
  parseCompiledPackage,
  type Publication,
  publicationOf,
  publishTransaction,
  PublishError
} from "../../../scripts/publish-move.ts"

const id = (digit: string) => `0x${digit.repeat(64)}`
const SENDER = id("a")
const PACKAGE = id("5")
const REGISTRY = id("7")
const ADMIN_CAP = id("8")
const UPGRADE_CAP = id("9")
const GAS = id("6")
const DIGEST = "9QeaT9EdVa52s8YhHTzVzdnBenoYiY23jCDW96eFkSzS"

// A module's bytes start with Move's magic; the rest does not matter to the transaction.
const MODULE = toBase64(new Uint8Array([0xa1, 0x1c, 0xeb, 0x0b, 0x07, 0x00, 0x00, 0x0a]))
// The build lists the framework's packages in short form.
const BUILD_OUTPUT = JSON.stringify({ modules: [MODULE], dependencies: ["0x1", "0x2"], digest: [1, 2, 3] })

const addressOwner = (address: string): SuiClientTypes.ObjectOwner => ({ $kind: "AddressOwner", AddressOwner: address })

/** One object the transaction created, as the gRPC transport reports it. */
const createdObject = (objectId: string, owner: SuiClientTypes.ObjectOwner): SuiClientTypes.ChangedObject => ({
  objectId,
  inputState: "DoesNotExist",
  inputVersion: null,
  inputDigest: null,
  inputOwner: null,
  outputState: "ObjectWrite",
  outputVersion: "42",
  outputDigest: "4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi",
  outputOwner: owner,
  idOperation: "Created"
})

const GAS_CHANGE: SuiClientTypes.ChangedObject = {
  objectId: GAS,
  inputState: "Exists",
  inputVersion: "41",
  inputDigest: "8uGnq2FJQ8vGw4Mn7uB6A9ZxgWq8QXbTQ6sh8vY9DdUv",
  inputOwner: addressOwner(SENDER),
  outputState: "ObjectWrite",
  outputVersion: "42",
  outputDigest: "Fj2yXbQnC6t4SWdUa8P1tXnKb8Y2gMiAz3mYGm8Tf3DY",
  outputOwner: addressOwner(SENDER),
  idOperation: "None"
}

const PACKAGE_CHANGE: SuiClientTypes.ChangedObject = {
  ...createdObject(PACKAGE, { $kind: "Immutable", Immutable: true }),
  outputState: "PackageWrite",
  outputVersion: "1"
}

const CREATED = [
  PACKAGE_CHANGE,
  createdObject(REGISTRY, { $kind: "Shared", Shared: { initialSharedVersion: "42" } }),
  createdObject(ADMIN_CAP, addressOwner(SENDER)),
  createdObject(UPGRADE_CAP, addressOwner(SENDER))
]

// gRPC names types with full-length addresses; the package's own entry is not a struct tag.
const TYPES: Record<string, string> = {
  [GAS]: `0x${"0".repeat(63)}2::coin::Coin<0x${"0".repeat(63)}2::sui::SUI>`,
  [PACKAGE]: "package",
  [REGISTRY]: `${PACKAGE}::spend_account::Registry`,
  [ADMIN_CAP]: `${PACKAGE}::spend_account::AdminCap`,
  [UPGRADE_CAP]: `0x${"0".repeat(63)}2::package::UpgradeCap`
}

/** A publish transaction as `waitForTransaction` returns it with `{ effects: true, objectTypes: true }`. */
const published = (
  changedObjects: Array<SuiClientTypes.ChangedObject> = [GAS_CHANGE, ...CREATED],
  status: SuiClientTypes.ExecutionStatus = { success: true, error: null },
  objectTypes: Record<string, string> = TYPES
): SuiClientTypes.Transaction<{ effects: true; objectTypes: true }> => ({
  digest: DIGEST,
  signatures: [],
  epoch: "812",
  timestampMs: 1_767_000_000_000,
  checkpoint: "220000000",
  status,
  balanceChanges: undefined,
  effects: {
    bcs: null,
    version: 2,
    status,
    gasUsed: { computationCost: "1000000", storageCost: "40000000", storageRebate: "978120", nonRefundableStorageFee: "9880" },
    transactionDigest: DIGEST,
    gasObject: GAS_CHANGE,
    eventsDigest: null,
    dependencies: [],
    lamportVersion: "42",
    changedObjects,
    unchangedConsensusObjects: [],
    auxiliaryDataDigest: null
  },
  events: undefined,
  objectTypes,
  transaction: undefined,
  bcs: undefined
})

const refusal = (run: () => unknown): string => {
  try {
    run()
  } catch (error) {
    assert.instanceOf(error, PublishError)
    return error instanceof Error ? error.message : ""
  }
  return assert.fail("expected a PublishError")
}

describe("publicationOf", () => {
  it("finds the package, the shared Registry and the two capabilities", () => {
    assert.deepStrictEqual(publicationOf(published(), SENDER), {
      digest: DIGEST,
      packageId: PACKAGE,
      registryId: REGISTRY,
      adminCapId: ADMIN_CAP,
      upgradeCapId: UPGRADE_CAP
    })
  })

  it("reads short type addresses and an upper-case sender as the same objects", () => {
    const types = { ...TYPES, [UPGRADE_CAP]: "0x2::package::UpgradeCap" }
    assert.strictEqual(publicationOf(published(undefined, undefined, types), `0x${"A".repeat(64)}`).upgradeCapId, UPGRADE_CAP)
  })

  // The SDK reports errors it has no case for (out of gas, a module that fails verification) as Unknown.
  it("refuses a failed transaction, naming its digest and the error", () => {
    const message = refusal(() =>
      publicationOf(
        published([GAS_CHANGE], { success: false, error: { $kind: "Unknown", message: "InsufficientGas", Unknown: null } }),
        SENDER
      )
    )
    assert.include(message, DIGEST)
    assert.include(message, "InsufficientGas")
  })

  it("refuses effects without a Registry: other bytecode than spend_account", () => {
    const message = refusal(() => publicationOf(published([GAS_CHANGE, ...CREATED.filter((change) => change.objectId !== REGISTRY)]), SENDER))
    assert.include(message, "no shared")
    assert.include(message, "::spend_account::Registry")
  })

  it("refuses a Registry that is not shared", () => {
    const owned = CREATED.map((change) => change.objectId === REGISTRY ? { ...change, outputOwner: addressOwner(SENDER) } : change)
    assert.include(refusal(() => publicationOf(published([GAS_CHANGE, ...owned]), SENDER)), "no shared")
  })

  it("refuses capabilities that went to someone else than the publisher", () => {
    const elsewhere = CREATED.map((change) => change.objectId === UPGRADE_CAP ? { ...change, outputOwner: addressOwner(id("b")) } : change)
    assert.include(refusal(() => publicationOf(published([GAS_CHANGE, ...elsewhere]), SENDER)), "UpgradeCap owned by")
    assert.include(refusal(() => publicationOf(published(), id("b"))), "AdminCap owned by")
  })

  it("refuses effects that created no package or a Registry of another package", () => {
    assert.include(refusal(() => publicationOf(published([GAS_CHANGE, ...CREATED.slice(1)]), SENDER)), "no package")
    const foreign = { ...TYPES, [REGISTRY]: `${id("c")}::spend_account::Registry` }
    assert.include(refusal(() => publicationOf(published(undefined, undefined, foreign), SENDER)), "no shared")
  })
})

describe("gatewayEnvironment", () => {
  it("prints the gateway's variables as KEY=value and the capabilities as comments", () => {
    const publication: Publication = { digest: DIGEST, packageId: PACKAGE, registryId: REGISTRY, adminCapId: ADMIN_CAP, upgradeCapId: UPGRADE_CAP }
    const lines = gatewayEnvironment(publication, "testnet", "https://fullnode.testnet.sui.io:443").split("\n")
    const variables = lines.filter((line) => !line.startsWith("#"))
    assert.deepStrictEqual(variables, [
      "SUI_GRPC_URL=https://fullnode.testnet.sui.io:443",
      "SUI_NETWORK=testnet",
      `SPEND_ACCOUNT_PACKAGE=${PACKAGE}`,
      `SPEND_ACCOUNT_PUBLISHED_AT=${PACKAGE}`,
      `SPEND_ACCOUNT_REGISTRY=${REGISTRY}`
    ])
    const comments = lines.filter((line) => line.startsWith("#")).join("\n")
    assert.include(comments, ADMIN_CAP)
    assert.include(comments, UPGRADE_CAP)
  })
})

describe("parseCompiledPackage", () => {
  it("takes the build's modules and dependencies", () => {
    const compiled = parseCompiledPackage(BUILD_OUTPUT, "bytecode.json")
    assert.deepStrictEqual(compiled.modules, [MODULE])
    assert.strictEqual(compiled.dependencies.length, 2)
  })

  it("says what is wrong with anything else", () => {
    assert.include(refusal(() => parseCompiledPackage("INCLUDING DEPENDENCY Sui", "stdin")), "stdin is not JSON")
    assert.include(refusal(() => parseCompiledPackage("{}", "x.json")), "has no \"modules\"")
    assert.include(refusal(() => parseCompiledPackage(JSON.stringify({ modules: [], dependencies: [] }), "x.json")), "non-empty array of base64")
    assert.include(refusal(() => parseCompiledPackage(JSON.stringify({ modules: ["not base64!"], dependencies: [] }), "x.json")), "base64")
    assert.include(refusal(() => parseCompiledPackage(JSON.stringify({ modules: [MODULE], dependencies: ["sui"] }), "x.json")), "package ids")
  })
})

describe("publishTransaction", () => {
  it.effect("publishes the modules and sends the UpgradeCap to the publisher", () =>
    Effect.gen(function*() {
      const compiled = parseCompiledPackage(BUILD_OUTPUT, "bytecode.json")
      // The kind as the SDK serializes it: what gets signed, minus gas.
      const kind = yield* Effect.promise(() => publishTransaction(compiled, SENDER).build({ onlyTransactionKind: true }))
      const { commands, inputs } = Transaction.fromKind(kind).getData()
      const [publish, transfer] = commands
      assert.strictEqual(commands.length, 2)
      assert.deepStrictEqual(publish?.Publish?.modules, [MODULE])
      assert.deepStrictEqual(publish?.Publish?.dependencies, compiled.dependencies.map((dependency) => normalizeSuiAddress(dependency)))
      assert.deepStrictEqual(transfer?.TransferObjects?.objects, [{ $kind: "Result", Result: 0 }])
      const recipient = transfer?.TransferObjects?.address
      assert.strictEqual(recipient?.$kind, "Input")
      const input = recipient?.$kind === "Input" ? inputs[recipient.Input] : undefined
      assert.strictEqual(input?.Pure?.bytes, toBase64(new Uint8Array(Array.from({ length: 32 }, () => 0xaa))))
    }))
})
