import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { makeApiClient } from "@gateway/client"
import { makeAgent } from "@gateway/client/AgentSdk"
import { fundedOwner, grantedAgent } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"
import { call, sellerEnv, sellerSession, serviceOf, termsJson } from "../support/SellerEnv.ts"

const A_SECRET = "seller-a-upstream-secret-never-for-b"
const B_SECRET = "seller-b-own-upstream-secret"
/** Where the old design let any seller point: a variable the operator set for seller A. */
const A_LOCATOR = "UPSTREAM_SELLER_A_TOKEN"
process.env[A_LOCATOR] = A_SECRET

/** The Authorization header of every call the recording upstream received from index `from` on. */
const authorizationsSince = (upstream: Upstream["Service"], from: number) =>
  upstream.calls.slice(from).map((c) => c.headers.authorization ?? null)

describe("a seller's upstream credential belongs to that seller", () => {
  layer(sellerEnv(), { excludeTestServices: true })((it) => {
    it.effect("seller B gets nothing of seller A's secret by any register, edit or activation; each upstream sees its own", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const ledger = yield* TestLedger
        const upstream = yield* Upstream
        const client = yield* makeApiClient(baseUrl)
        const { owner, asOwner } = yield* fundedOwner(client)
        const { agentKey, manifest } = yield* grantedAgent(client, owner, asOwner, { key: "seller-credentials", budget: 10_000n, perPayment: 100n })
        const agent = makeAgent({ manifest, signer: agentKey, client: ledger.client })
        const sellerA = yield* sellerSession(client, baseUrl)
        const sellerB = yield* sellerSession(client, baseUrl)

        const registeredA = yield* sellerA.register(termsJson("Seller A", upstream.url, { upstreamCredential: A_SECRET }))
        assert.strictEqual(registeredA.status, 200, registeredA.text)
        const serviceA = serviceOf(registeredA)
        assert.strictEqual((yield* sellerA.activate(serviceA.id)).status, 200)

        // B names A's locator: refused as an unknown field, or accepted and carrying no credential at all.
        const byLocator = yield* sellerB.register(termsJson("B by locator", upstream.url, { upstreamCredentialEnv: A_LOCATOR }))
        const viaLocator = byLocator.status === 200 ? serviceOf(byLocator) : undefined
        if (viaLocator === undefined) assert.strictEqual(byLocator.body["code"], "INVALID", byLocator.text)
        else assert.strictEqual((yield* sellerB.activate(viaLocator.id)).status, 200)

        // B takes over A's service: every route says it does not exist, and A's service is unchanged.
        for (const attempt of [sellerB.edit(serviceA.id, termsJson("Hijack", upstream.url)), sellerB.activate(serviceA.id), sellerB.manage(serviceA.id)]) {
          const answer = yield* attempt
          assert.strictEqual(answer.status, 404, answer.text)
          assert.strictEqual(answer.body["code"], "NOT_FOUND")
        }
        const managedA = yield* sellerA.manage(serviceA.id)
        assert.deepInclude(managedA.body["management"], { hasUpstreamCredential: true, draftRevision: null })

        // B's own service with B's own secret; then B edits it without naming a credential, which keeps B's own.
        const registeredB = yield* sellerB.register(termsJson("Seller B", upstream.url, { upstreamCredential: B_SECRET }))
        const serviceB = serviceOf(registeredB)
        assert.strictEqual((yield* sellerB.activate(serviceB.id)).status, 200)
        const editedB = yield* sellerB.edit(serviceB.id, termsJson("Seller B, edited", upstream.url))
        assert.strictEqual(editedB.status, 200, editedB.text)
        assert.deepInclude(editedB.body["management"], { hasUpstreamCredential: true })
        assert.strictEqual((yield* sellerB.activate(serviceB.id)).status, 200)

        const before = upstream.calls.length
        for (const url of [...(viaLocator === undefined ? [] : [viaLocator.resourceUrl]), serviceB.resourceUrl]) {
          const paid = yield* agent.fetchPaid(url)
          assert.strictEqual(paid.response.status, 200, url)
        }
        const seenByB = authorizationsSince(upstream, before)
        assert.deepStrictEqual(seenByB, [...(viaLocator === undefined ? [] : [null]), `Bearer ${B_SECRET}`], "B's upstream sees only B's own")

        const beforeA = upstream.calls.length
        assert.strictEqual((yield* agent.fetchPaid(serviceA.resourceUrl)).response.status, 200)
        assert.deepStrictEqual(authorizationsSince(upstream, beforeA), [`Bearer ${A_SECRET}`], "A's credential reaches A's upstream")

        for (const answer of [registeredA, registeredB, editedB, managedA, yield* sellerB.manage(serviceB.id)]) {
          assert.notInclude(answer.text, A_SECRET)
          assert.notInclude(answer.text, B_SECRET)
        }
      }))

    it.effect("a credential copied into another seller's service in the store opens for nobody", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const upstream = yield* Upstream
        const sql = yield* SqlClient.SqlClient
        const client = yield* makeApiClient(baseUrl)
        const sellerA = yield* sellerSession(client, baseUrl)
        const sellerB = yield* sellerSession(client, baseUrl)
        const serviceA = serviceOf(yield* sellerA.register(termsJson("Sealed A", upstream.url, { upstreamCredential: A_SECRET })))
        const serviceB = serviceOf(yield* sellerB.register(termsJson("Sealed B", upstream.url, { upstreamCredential: B_SECRET })))
        assert.strictEqual((yield* sellerB.activate(serviceB.id)).status, 200)

        // Someone with write access to the store moves A's ciphertext onto B's live revision.
        yield* sql`UPDATE service_revisions SET upstream_credential =
            (SELECT upstream_credential FROM service_revisions WHERE service_id = ${serviceA.id})
            WHERE service_id = ${serviceB.id}`
        const before = upstream.calls.length
        const unpaid = yield* call(serviceB.resourceUrl)
        assert.strictEqual(unpaid.status, 503, unpaid.text)
        assert.strictEqual(unpaid.body["code"], "UNAVAILABLE")
        assert.strictEqual(unpaid.body["reason"], "upstream_credential_unreadable")
        assert.notInclude(unpaid.text, A_SECRET)
        assert.strictEqual(upstream.calls.length, before, "nothing was forwarded")
      }))

    it.effect("a credential is write-only: no route returns it, and null removes it", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const upstream = yield* Upstream
        const client = yield* makeApiClient(baseUrl)
        const seller = yield* sellerSession(client, baseUrl)
        const registered = yield* seller.register(termsJson("Write only", upstream.url, { upstreamCredential: A_SECRET }))
        const { id } = serviceOf(registered)
        assert.strictEqual((yield* seller.activate(id)).status, 200)
        for (const path of [`/v1/services/${id}`, `/v1/services/${id}.md`, `/v1/services/${id}/manage`, "/v1/services", "/llms.txt", "/openapi.json"]) {
          const answer = yield* call(`${baseUrl}${path}`, { headers: { authorization: seller.authorization } })
          assert.strictEqual(answer.status, 200, path)
          assert.notInclude(answer.text, A_SECRET, path)
        }
        const cleared = yield* seller.edit(id, termsJson("Write only", upstream.url, { upstreamCredential: null }))
        assert.strictEqual(cleared.status, 200, cleared.text)
        assert.deepInclude(cleared.body["management"], { hasUpstreamCredential: false })
        for (const bad of ["", "two words", "line\nbreak", "x".repeat(4097)]) {
          const refused = yield* seller.register(termsJson("Bad credential", upstream.url, { upstreamCredential: bad }))
          assert.strictEqual(refused.status, 400, JSON.stringify(bad))
          assert.match(String(refused.body["reason"]), /^body\.upstreamCredential/)
        }
      }))
  })
})
