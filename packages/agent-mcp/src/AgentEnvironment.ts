import { readFile } from "node:fs/promises"
import type { ClientWithCoreApi } from "@mysten/sui/client"
import type { Signer } from "@mysten/sui/cryptography"
import { SuiGrpcClient } from "@mysten/sui/grpc"
import { Effect, Schema } from "effect"
import { keypairFromExport } from "@gateway/domain/chain/KeypairExport"
import { ConnectionManifest } from "@gateway/domain/ConnectionManifest"

/** The server cannot start: `reason` names the setting at fault and never quotes a key. */
export class AgentSetupError extends Schema.TaggedError<AgentSetupError>()("AgentSetupError", { reason: Schema.String }) {}

/** What the agent pays with: its manifest, its key (kept in this process) and its chain client. */
export interface AgentEnvironment {
  readonly manifest: ConnectionManifest
  readonly signer: Signer
  readonly client: ClientWithCoreApi
  /** How many calls a payment session's deposit pays for (`pay_and_call` with `payment: "session"`); the SDK's 100 unless set. */
  readonly sessionCalls?: number
}

const setupError = (reason: string) => new AgentSetupError({ reason })

// Only that it is not a key: the value itself is never echoed.
const keypairOf = (exported: string) =>
  Effect.fromNullishOr(keypairFromExport(exported)).pipe(
    Effect.mapError(() => setupError("the agent key is not a Sui private key export (suiprivkey1…) of an Ed25519, Secp256k1 or Secp256r1 key"))
  )

const agentKey = (env: Record<string, string | undefined>) =>
  Effect.gen(function*() {
    const inline = env["AGENT_KEY"]
    if (inline !== undefined && inline !== "") return yield* keypairOf(inline.trim())
    const file = env["AGENT_KEY_FILE"]
    if (file === undefined || file === "") return yield* Effect.fail(setupError("set AGENT_KEY or AGENT_KEY_FILE to the agent's key"))
    const text = yield* Effect.tryPromise({
      try: () => readFile(file, "utf8"),
      catch: () => setupError(`AGENT_KEY_FILE ${file} cannot be read`)
    })
    return yield* keypairOf(text.trim())
  })

/**
 * Why a manifest URL answered no manifest. The gateway's own manifest route
 * answers only its owner's session, which this server never holds: the fix is
 * a file the owner saved.
 */
const refusedManifest = (status: number) =>
  status === 401 || status === 403
    ? `${status}: the gateway's manifest route needs the owner's session; have the owner save the manifest to a file (the console's Download manifest, or GET /v1/delegated-signers/{id}/manifest with their token) and set GATEWAY_MANIFEST to its path`
    : String(status)

const manifestText = (source: string) =>
  /^https?:\/\//.test(source)
    ? Effect.tryPromise({
      try: async () => {
        const response = await fetch(source, { headers: { accept: "application/json" } })
        if (!response.ok) throw new Error(refusedManifest(response.status))
        return response.text()
      },
      catch: (e) => setupError(`GATEWAY_MANIFEST ${source} cannot be fetched: ${e instanceof Error ? e.message : String(e)}`)
    })
    : Effect.tryPromise({
      try: () => readFile(source, "utf8"),
      catch: () => setupError(`GATEWAY_MANIFEST ${source} cannot be read`)
    })

const decodeManifest = Schema.decodeUnknownEffect(Schema.fromJsonString(ConnectionManifest))

const connectionManifest = (env: Record<string, string | undefined>) =>
  Effect.gen(function*() {
    const source = env["GATEWAY_MANIFEST"]
    if (source === undefined || source === "") {
      return yield* Effect.fail(setupError("set GATEWAY_MANIFEST to the path of the connection manifest's file (or a URL that serves it without a session)"))
    }
    const text = yield* manifestText(source)
    return yield* decodeManifest(text).pipe(Effect.mapError((e) => setupError(`GATEWAY_MANIFEST is not a connection manifest: ${e.message}`)))
  })

/** The manifest names its network `sui:<network>`; the gRPC client takes the bare name. */
const networkName = (manifest: ConnectionManifest) => manifest.network.replace(/^sui:/, "")

/**
 * SUI_GRPC_URL, or on localnet the gateway's own ledger at `<apiBaseUrl>/sui`:
 * a gateway in local mode serves its LocalLedger there, and no public localnet exists.
 */
const grpcUrl = (env: Record<string, string | undefined>, manifest: ConnectionManifest) => {
  const configured = env["SUI_GRPC_URL"]
  if (configured !== undefined && configured !== "") return Effect.succeed(configured)
  if (networkName(manifest) === "localnet") return Effect.succeed(`${manifest.apiBaseUrl}/sui`)
  return Effect.fail(setupError(`set SUI_GRPC_URL to a Sui gRPC endpoint of ${manifest.network}`))
}

/** AGENT_SESSION_CALLS, when set: a whole number of calls, at least 1. */
const sessionCalls = (env: Record<string, string | undefined>) => {
  const value = env["AGENT_SESSION_CALLS"]
  if (value === undefined || value === "") return Effect.succeed({})
  const calls = Number(value)
  return Number.isSafeInteger(calls) && calls >= 1
    ? Effect.succeed({ sessionCalls: calls })
    : Effect.fail(setupError("AGENT_SESSION_CALLS must be a whole number of calls, at least 1"))
}

/** Reads the agent's settings from the environment: AGENT_KEY or AGENT_KEY_FILE, GATEWAY_MANIFEST, SUI_GRPC_URL, AGENT_SESSION_CALLS. */
export const loadAgentEnvironment = (env: Record<string, string | undefined>): Effect.Effect<AgentEnvironment, AgentSetupError> =>
  Effect.gen(function*() {
    const signer = yield* agentKey(env)
    const manifest = yield* connectionManifest(env)
    if (signer.toSuiAddress() !== manifest.delegate) {
      return yield* Effect.fail(setupError(`the agent key's address is not the manifest's delegate ${manifest.delegate}`))
    }
    const baseUrl = yield* grpcUrl(env, manifest)
    return { manifest, signer, client: new SuiGrpcClient({ network: networkName(manifest), baseUrl }), ...(yield* sessionCalls(env)) }
  })
