import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { assert, describe, layer } from "@effect/vitest"
import { decodeSuiPrivateKey } from "@mysten/sui/cryptography"
import { fromBase64 } from "@mysten/sui/utils"
import { Effect, Option, Redacted } from "effect"
import { makeApiClient } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { internalHopMac } from "../../src/owners/InternalHop.ts"
import { createRequest, fundedOwner, liveService, paidCallEnv } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl, INTERNAL_SECRET } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"
import { captureLogs, wholeLine } from "../support/LogCapture.ts"

const UPSTREAM_SECRET = "upstream-credential-that-must-never-leak"

const { logs, layer: Capture } = captureLogs()

/** The platform's gas sponsor, configured as SPONSOR_KEY is. */
const SPONSOR = new Ed25519Keypair()

/** Every response the test saw, headers and body. */
const responses: Array<string> = []
const recorded = async (input: string, init?: RequestInit) => {
  const response = await fetch(input, init)
  const body = await response.clone().text()
  responses.push(`${[...response.headers.entries()].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${body}`)
  return response
}

describe("secrets stay secret", () => {
  layer(paidCallEnv({ sponsorKey: Option.some(Redacted.make(SPONSOR.getSecretKey())) }, Capture), {
    excludeTestServices: true
  })((it) => {
    it.effect("no response or log line carries a session token, the hop secret, a seller credential or a private key", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const ledger = yield* TestLedger
        const upstream = yield* Upstream
        const client = yield* makeApiClient(baseUrl)
        const ownerKey = new Ed25519Keypair()
        const { owner, session, asOwner } = yield* fundedOwner(client, ownerKey)
        const token = session.authorization.replace("Bearer ", "")

        const hopAt = Date.now()
        const hop = `Internal ${owner.toSuiAddress()}.${hopAt}.${internalHopMac(INTERNAL_SECRET, owner.toSuiAddress(), hopAt)}`
        for (const authorization of [session.authorization, hop, hop, "Bearer wrong"]) {
          yield* Effect.promise(() => recorded(`${baseUrl}/v1/delegated-signers`, { headers: { authorization } }))
        }

        const { entry } = yield* liveService(client, { price: 40n, upstreamUrl: upstream.url, upstreamCredential: UPSTREAM_SECRET })
        const agentKey = new Ed25519Keypair()
        yield* ledger.gas(agentKey.toSuiAddress())
        const created = yield* client.delegatedSigners.create(createRequest(agentKey.toSuiAddress(), "secrets")).pipe(asOwner)
        const grant = created.grants[0]
        if (grant === undefined) return assert.fail("no grant")
        const digest = yield* ledger.execute(grant.txKindBytes, owner)
        yield* ledger.checkpoint
        yield* client.delegatedSigners.finalizeCreate({ params: { id: created.delegatedSignerId, grantId: grant.grantId }, payload: { digest } }).pipe(asOwner)
        yield* Effect.promise(() => recorded(`${baseUrl}/v1/delegated-signers/${created.delegatedSignerId}/manifest`, { headers: { authorization: session.authorization } }))
        const manifest = yield* client.delegatedSigners.manifest({ params: { id: created.delegatedSignerId } }).pipe(asOwner)
        const paid = yield* makeAgent({ manifest, signer: agentKey, client: ledger.client }).fetchPaid(entry.resourceUrl)
        responses.push(yield* Effect.promise(() => paid.response.clone().text()))
        assert.strictEqual(upstream.calls.at(-1)?.headers.authorization, `Bearer ${UPSTREAM_SECRET}`, "the seller did get its credential")
        // A sponsored pause: the sponsor key signs, and must show up nowhere.
        const pause = yield* client.delegatedSigners.preparePause({ params: { id: created.delegatedSignerId } }).pipe(asOwner)
        const kind = pause.grants[0]
        if (kind === undefined) return assert.fail("nothing to pause")
        const json = { authorization: session.authorization, "content-type": "application/json" }
        const sponsored = yield* Effect.promise(() =>
          recorded(`${baseUrl}/v1/sponsored-transactions`, { method: "POST", headers: json, body: JSON.stringify({ txKindBytes: kind.txKindBytes }) })
            .then((r) => r.json() as Promise<{ txBytes: string }>)
        )
        const { signature } = yield* Effect.promise(() => ownerKey.signTransaction(fromBase64(sponsored.txBytes)))
        const executed = yield* Effect.promise(() =>
          recorded(`${baseUrl}/v1/sponsored-transactions/execute`, { method: "POST", headers: json, body: JSON.stringify({ txBytes: sponsored.txBytes, signature }) })
        )
        assert.strictEqual(executed.status, 200, "the sponsored pause executed")
        for (const path of ["/llms.txt", "/openapi.json", `/v1/services/${entry.id}`, `/v1/services/${entry.id}.md`]) {
          yield* Effect.promise(() => recorded(`${baseUrl}${path}`))
        }

        const secrets = {
          "session token": token,
          "internal hop secret": INTERNAL_SECRET,
          "seller credential": UPSTREAM_SECRET,
          "owner private key": ownerKey.getSecretKey(),
          "agent private key": agentKey.getSecretKey(),
          "sponsor private key": SPONSOR.getSecretKey(),
          "sponsor private key (hex)": Buffer.from(decodeSuiPrivateKey(SPONSOR.getSecretKey()).secretKey).toString("hex"),
          "sponsor private key (base64)": Buffer.from(decodeSuiPrivateKey(SPONSOR.getSecretKey()).secretKey).toString("base64")
        }
        assert.isAbove(logs.length, 10, "the server logged during the test")
        for (const [name, secret] of Object.entries(secrets)) {
          for (const line of logs) assert.notInclude(wholeLine(line), secret, `${name} in a log line`)
          for (const response of responses) assert.notInclude(response, secret, `${name} in a response`)
        }
      }))
  })
})
