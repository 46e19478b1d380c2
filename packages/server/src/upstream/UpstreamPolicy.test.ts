import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { checkUpstreamUrl, isForbiddenAddress } from "./UpstreamPolicy.ts"

describe("forbidden upstream addresses", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "0.0.0.0",
    "10.1.2.3",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.254",
    "224.0.0.1",
    "255.255.255.255",
    "::1",
    "::",
    "[::1]",
    "fe80::1",
    "fe80::1%eth0",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
    "::127.0.0.1",
    "64:ff9b::127.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b::10.0.0.1",
    "64:ff9b:1::1",
    "2002:7f00:1::1",
    "2002:a9fe:a9fe::1",
    "not-an-ip"
  ])("refuses %s", (ip) => {
    assert.isTrue(isForbiddenAddress(ip))
  })

  it.each([
    "1.1.1.1",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "169.255.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1"
  ])("allows %s", (ip) => {
    assert.isFalse(isForbiddenAddress(ip))
  })
})

describe("upstream URLs", () => {
  const verdict = (url: string, allow: ReadonlyArray<string> = []) => Effect.runPromise(checkUpstreamUrl(url, allow))

  it.each([
    ["http://127.0.0.1:4100/x", "upstream_address_is_loopback_private_or_reserved"],
    ["http://169.254.169.254/latest/meta-data", "upstream_address_is_loopback_private_or_reserved"],
    ["http://[::1]:8080/", "upstream_address_is_loopback_private_or_reserved"],
    ["http://[::ffff:127.0.0.1]/", "upstream_address_is_loopback_private_or_reserved"],
    ["http://0x7f000001/", "upstream_address_is_loopback_private_or_reserved"],
    ["http://2130706433/", "upstream_address_is_loopback_private_or_reserved"],
    ["http://localhost:4100/", "upstream_address_is_loopback_private_or_reserved"],
    ["http://10.0.0.5/", "upstream_address_is_loopback_private_or_reserved"],
    ["ftp://example.com/", "upstream_url_must_be_http_or_https"],
    ["file:///etc/passwd", "upstream_url_must_be_http_or_https"],
    ["http://user:pw@1.1.1.1/", "upstream_url_must_not_carry_userinfo"],
    ["not a url", "upstream_url_not_a_url"],
    ["http://no-such-host.invalid/", "upstream_host_does_not_resolve"]
  ])("refuses %s", async (url, reason) => {
    assert.deepStrictEqual(await verdict(url), { ok: false, reason })
  })

  it("allows a public address, and a loopback one only as the exact allow-listed host:port", async () => {
    assert.deepStrictEqual(await verdict("https://1.1.1.1/answer"), { ok: true })
    assert.deepStrictEqual(await verdict("http://127.0.0.1:4100/x", ["127.0.0.1:4100"]), { ok: true })
    assert.deepStrictEqual(await verdict("http://127.0.0.1:4101/x", ["127.0.0.1:4100"]), {
      ok: false,
      reason: "upstream_address_is_loopback_private_or_reserved"
    })
    assert.deepStrictEqual(await verdict("http://[::1]:80/", ["[::1]:80"]), { ok: true })
  })
})
