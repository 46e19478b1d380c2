import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { makeApiClient } from "@gateway/client"
import { BaseUrl } from "../support/TestServer.ts"
import { Upstream } from "../support/Upstream.ts"
import { sellerEnv, sellerSession, serviceOf, termsJson } from "../support/SellerEnv.ts"

describe("a seller cannot point the gateway at its own network", () => {
  layer(sellerEnv(), { excludeTestServices: true })((it) => {
    it.effect("register and edit refuse loopback, metadata, private and the gateway's own port with INVALID; the allow-listed upstream passes", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const upstream = yield* Upstream
        const client = yield* makeApiClient(baseUrl)
        const seller = yield* sellerSession(client, baseUrl)
        const gatewayPort = new URL(baseUrl).port
        const upstreamPort = new URL(upstream.url).port
        const refused: ReadonlyArray<readonly [string, RegExp]> = [
          ["http://127.0.0.1:4100/answer", /loopback/],
          [`http://127.0.0.1:${gatewayPort}/v1/services`, /loopback/],
          [`http://localhost:${gatewayPort}/v1/services`, /loopback/],
          // The allow-list names one host:port, not the whole host.
          [`http://127.0.0.1:${Number(upstreamPort) === 65535 ? 1 : Number(upstreamPort) + 1}/answer`, /loopback/],
          ["http://169.254.169.254/latest/meta-data/iam/security-credentials/", /loopback/],
          ["http://[::1]:8080/answer", /loopback/],
          ["http://[::ffff:127.0.0.1]:8080/answer", /loopback/],
          ["http://10.1.2.3/answer", /private/],
          ["http://192.168.0.10/answer", /private/],
          ["http://172.16.5.4/answer", /private/],
          ["http://100.64.0.1/answer", /private/],
          ["http://[fd00::1]/answer", /private/],
          ["http://0.0.0.0:80/answer", /reserved/],
          ["file:///etc/passwd", /http/],
          ["ftp://example.com/answer", /http/],
          ["http://user:pass@example.com/answer", /userinfo/]
        ]
        for (const [url, rule] of refused) {
          const answer = yield* seller.register(termsJson("SSRF", url))
          assert.strictEqual(answer.status, 400, `${url}: ${answer.text}`)
          assert.strictEqual(answer.body["code"], "INVALID", url)
          assert.match(String(answer.body["reason"]), /^body\.upstreamUrl/, url)
          assert.match(String(answer.body["reason"]), rule, url)
        }

        const allowed = yield* seller.register(termsJson("Allowed", upstream.url))
        assert.strictEqual(allowed.status, 200, allowed.text)
        const { id } = serviceOf(allowed)
        for (const [url, rule] of refused) {
          const answer = yield* seller.edit(id, termsJson("Allowed", url))
          assert.strictEqual(answer.status, 400, `edit to ${url}: ${answer.text}`)
          assert.match(String(answer.body["reason"]), rule, url)
        }
        const managed = yield* seller.manage(id)
        assert.deepInclude(managed.body["management"], { upstreamUrl: upstream.url, draftRevision: 1 }, "a refused edit wrote nothing")
      }))
  })
})
