/**
 * Publishes the `spend_account` Move package to a Sui network and prints what the gateway needs
 * (`npm run publish-move -- bytecode.json`, or the JSON on stdin).
 *
 * Input: the output of `sui move build --dump-bytecode-as-base64` (a JSON object with `modules`,
 * `dependencies` and `digest`). Needs SUI_GRPC_URL, SUI_NETWORK and PUBLISHER_KEY, a funded key as a
 * Sui private key export (`suiprivkey1…`, Ed25519, Secp256k1 or Secp256r1); the key is never printed.
 * The publisher receives the UpgradeCap (the publish transaction sends it) and the AdminCap (`init`
 * sends it). Prints, on stdout, the gateway's variables (`KEY=value` lines, ready for an env file)
 * and, as `#` comments, the two capability ids the operator must keep; progress goes to stderr.
 */
import { readFile } from "node:fs/promises"
import { resolve } from "node:path"
import { fileURLToPath } from "node:url"
import type { SuiClientTypes } from "@mysten/sui/client"
import type { Keypair } from "@mysten/sui/cryptography"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Transaction } from "@mysten/sui/transactions"
import { isValidSuiAddress, normalizeStructTag, normalizeSuiAddress } from "@mysten/sui/utils"
import { describeExecutionError } from "@gateway/chain/sui/ExecutionErrorText"
import { keypairFromExport } from "@gateway/domain/chain/KeypairExport"
import { adminCapType, registryType } from "@gateway/domain/chain/SpendAccountModule"

/** A refusal with a message meant for the operator (never quoting a key). */
export class PublishError extends Error {
  override readonly name = "PublishError"
}

/** What `sui move build --dump-bytecode-as-base64` prints, as far as publishing needs it. */
export interface CompiledPackage {
  /** Each module's bytecode, base64. */
  readonly modules: ReadonlyArray<string>
  /** The ids of the packages it links against (for this package, the framework's 0x1 and 0x2). */
  readonly dependencies: ReadonlyArray<string>
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

const stringArray = (value: unknown): value is ReadonlyArray<string> =>
  Array.isArray(value) && value.every((item) => typeof item === "string")

/** The build's JSON, checked; a message that says what is wrong with it otherwise. */
export const parseCompiledPackage = (text: string, source: string): CompiledPackage => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (cause) {
    throw new PublishError(
      `${source} is not JSON (expected the output of \`sui move build --dump-bytecode-as-base64\`): ${cause instanceof Error ? cause.message : String(cause)}`
    )
  }
  if (typeof json !== "object" || json === null || !("modules" in json) || !("dependencies" in json)) {
    throw new PublishError(`${source} has no "modules" and "dependencies": is it the output of \`sui move build --dump-bytecode-as-base64\`?`)
  }
  const { modules, dependencies } = json
  if (!stringArray(modules) || modules.length === 0 || !modules.every((module) => BASE64.test(module))) {
    throw new PublishError(`${source}: "modules" must be a non-empty array of base64 strings`)
  }
  if (!stringArray(dependencies) || !dependencies.every((id) => isValidSuiAddress(normalizeSuiAddress(id)))) {
    throw new PublishError(`${source}: "dependencies" must be an array of package ids`)
  }
  return { modules, dependencies }
}

/**
 * The publish transaction: publish the modules and hand the UpgradeCap to the sender (Sui refuses a
 * transaction that leaves it unused, and whoever holds it alone can upgrade the package).
 */
export const publishTransaction = (compiled: CompiledPackage, sender: string): Transaction => {
  const tx = new Transaction()
  tx.setSender(sender)
  const upgradeCap = tx.publish({ modules: [...compiled.modules], dependencies: [...compiled.dependencies] })
  tx.transferObjects([upgradeCap], sender)
  return tx
}

/** The ids a publication of `spend_account` created. */
export interface Publication {
  readonly digest: string
  /** The package's id: its original id, and the published-at id until the first upgrade. */
  readonly packageId: string
  /** The shared Registry `init` created. */
  readonly registryId: string
  /** The AdminCap `init` sent to the publisher (moves the Registry to a new package version). */
  readonly adminCapId: string
  /** The UpgradeCap the publish transaction sent to the publisher. */
  readonly upgradeCapId: string
}

type Published = SuiClientTypes.Transaction<{ effects: true; objectTypes: true }>
type ChangedObject = SuiClientTypes.ChangedObject

const created = (change: ChangedObject) => change.idOperation === "Created"
const ownedBy = (change: ChangedObject, address: string) =>
  change.outputOwner?.$kind === "AddressOwner" && normalizeSuiAddress(change.outputOwner.AddressOwner) === address

/** The one created object the predicate picks; otherwise a message naming what was looked for. */
const theOne = (changes: ReadonlyArray<ChangedObject>, what: string, digest: string, pick: (change: ChangedObject) => boolean) => {
  const found = changes.filter(pick)
  const [only] = found
  if (only === undefined || found.length > 1) {
    throw new PublishError(`transaction ${digest} created ${found.length === 0 ? "no" : found.length} ${what}: is the bytecode the spend_account package?`)
  }
  return normalizeSuiAddress(only.objectId)
}

/**
 * The ids of a publication, read from its effects and the changed objects' types alone (no further
 * reads): the package (the one package written), the shared Registry of that package, and the
 * AdminCap and UpgradeCap, both owned by the sender. Throws on a failed transaction and on effects
 * that do not show exactly one of each, so nothing half-published is ever printed as configuration.
 */
export const publicationOf = (transaction: Published, sender: string): Publication => {
  const { digest, effects, objectTypes } = transaction
  if (!effects.status.success) {
    throw new PublishError(`transaction ${digest} failed: ${describeExecutionError(effects.status.error)}`)
  }
  const owner = normalizeSuiAddress(sender)
  const changes = effects.changedObjects.filter(created)
  const typeOf = (change: ChangedObject) => {
    const type = objectTypes[change.objectId] ?? objectTypes[normalizeSuiAddress(change.objectId)]
    // A package's entry is not a struct tag ("package" over gRPC); only objects are compared by type.
    return type === undefined || !type.includes("::") ? undefined : normalizeStructTag(type)
  }
  const packageId = theOne(changes, "package", digest, (change) => change.outputState === "PackageWrite")
  const registry = normalizeStructTag(registryType(packageId))
  const adminCap = normalizeStructTag(adminCapType(packageId))
  const upgradeCap = normalizeStructTag("0x2::package::UpgradeCap")
  return {
    digest,
    packageId,
    registryId: theOne(changes, `shared ${registry}`, digest, (change) => typeOf(change) === registry && change.outputOwner?.$kind === "Shared"),
    adminCapId: theOne(changes, `${adminCap} owned by ${owner}`, digest, (change) => typeOf(change) === adminCap && ownedBy(change, owner)),
    upgradeCapId: theOne(changes, `${upgradeCap} owned by ${owner}`, digest, (change) => typeOf(change) === upgradeCap && ownedBy(change, owner))
  }
}

/** What to print: the gateway's variables as `KEY=value` lines, the operator's ids as comments. */
export const gatewayEnvironment = (publication: Publication, network: string, grpcUrl: string): string =>
  [
    `# spend_account published on ${network} in transaction ${publication.digest}`,
    `SUI_GRPC_URL=${grpcUrl}`,
    `SUI_NETWORK=${network}`,
    `SPEND_ACCOUNT_PACKAGE=${publication.packageId}`,
    `SPEND_ACCOUNT_PUBLISHED_AT=${publication.packageId}`,
    `SPEND_ACCOUNT_REGISTRY=${publication.registryId}`,
    `# Not for the gateway; keep both with the publisher's key, which owns them:`,
    `# AdminCap   ${publication.adminCapId}  (set_version after an upgrade)`,
    `# UpgradeCap ${publication.upgradeCapId}  (sui client upgrade -c <this id>)`
  ].join("\n")

const NETWORKS = ["localnet", "devnet", "testnet", "mainnet"] as const
type Network = (typeof NETWORKS)[number]
const isNetwork = (value: string): value is Network => NETWORKS.some((network) => network === value)

const required = (name: string, expected: string) => {
  const value = process.env[name]
  if (value === undefined || value.trim() === "") throw new PublishError(`${name} is not set: ${expected}`)
  return value.trim()
}

/** The publisher's key; the message never quotes the value. */
const publisherKey = (): Keypair => {
  const keypair = keypairFromExport(required("PUBLISHER_KEY", "the publisher's funded key, as a Sui private key export (suiprivkey1…)"))
  if (keypair === undefined) {
    throw new PublishError("PUBLISHER_KEY must be a Sui private key export (suiprivkey1…) of an Ed25519, Secp256k1 or Secp256r1 key")
  }
  return keypair
}

/** An error's message with its causes' (fetch reports only "fetch failed" and puts the reason in `cause`). */
const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  const own = error instanceof PublishError ? error.message : `${error.name}: ${error.message}`
  return error.cause === undefined ? own : `${own} (${describe(error.cause)})`
}

const readStdin = async () => {
  const chunks: Array<Buffer> = []
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)))
  return Buffer.concat(chunks).toString("utf8")
}

/** The build's JSON from the path given, or from stdin when none is (or `-`). */
const readCompiled = async (path: string | undefined): Promise<CompiledPackage> => {
  if (path === undefined || path === "-") {
    if (process.stdin.isTTY) {
      throw new PublishError(
        "no bytecode: pass the file `sui move build --dump-bytecode-as-base64` wrote (npm run publish-move -- bytecode.json) or pipe it in"
      )
    }
    const text = await readStdin()
    if (text.trim() === "") throw new PublishError("stdin is empty: pipe in the output of `sui move build --dump-bytecode-as-base64`")
    return parseCompiledPackage(text, "stdin")
  }
  let text: string
  try {
    text = await readFile(path, "utf8")
  } catch (cause) {
    throw new PublishError(`cannot read ${path}: ${cause instanceof Error ? cause.message : String(cause)}`)
  }
  return parseCompiledPackage(text, path)
}

const main = async () => {
  // Everything is checked before the network is touched.
  const grpcUrl = required("SUI_GRPC_URL", "a full node's gRPC URL, e.g. https://fullnode.testnet.sui.io:443")
  const network = required("SUI_NETWORK", `one of ${NETWORKS.join(", ")}`)
  if (!isNetwork(network)) throw new PublishError(`SUI_NETWORK must be one of ${NETWORKS.join(", ")}, not ${network}`)
  const signer = publisherKey()
  const compiled = await readCompiled(process.argv[2])
  const sender = signer.toSuiAddress()

  const client = new SuiGrpcClient({ network, baseUrl: grpcUrl })
  console.error(`publishing ${compiled.modules.length} module(s) from ${sender} on ${network} (${grpcUrl})`)
  const include = { effects: true, objectTypes: true } as const
  const executed = await client.core.signAndExecuteTransaction({ transaction: publishTransaction(compiled, sender), signer, include }).catch(
    (cause: unknown) => {
      throw new PublishError(`the publish transaction was not executed: ${describe(cause)}`)
    }
  )
  const result = executed.Transaction ?? executed.FailedTransaction
  // A transaction that ran and aborted still cost gas and published nothing: say so with its digest.
  if (!result.status.success) throw new PublishError(`transaction ${result.digest} failed: ${describeExecutionError(result.status.error)}`)
  console.error(`executed ${result.digest}; waiting for it to be indexed`)
  // Read back once the node has indexed it, so the ids printed are what later reads will see.
  const settled = await client.core.waitForTransaction({ digest: result.digest, include, timeout: 120_000 }).catch((cause: unknown) => {
    throw new PublishError(
      `transaction ${result.digest} executed but could not be read back (${describe(cause)}): look it up by its digest before publishing again`
    )
  })
  const publication = publicationOf(settled.Transaction ?? settled.FailedTransaction, sender)
  console.log(gatewayEnvironment(publication, network, grpcUrl))
}

// Run only as a script: the test imports the pure functions above.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(describe(error))
    process.exit(1)
  })
}
