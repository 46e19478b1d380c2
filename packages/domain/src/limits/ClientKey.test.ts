import { describe, expect, it } from "@effect/vitest"
import { clientKey } from "./ClientKey.ts"

describe("clientKey", () => {
  it("counts an IPv6 client by its /64, so one network's 2^64 addresses share one budget", () => {
    expect(clientKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64")
    expect(clientKey("2001:db8:1:2:ffff::1")).toBe(clientKey("2001:db8:1:2::9"))
    expect(clientKey("2001:db8:1:3::1")).not.toBe(clientKey("2001:db8:1:2::1"))
  })

  it("counts an IPv4 client by its address, written either way", () => {
    expect(clientKey("198.51.100.7")).toBe("198.51.100.7")
    expect(clientKey("::ffff:198.51.100.7")).toBe("198.51.100.7")
    expect(clientKey("198.51.100.8")).not.toBe(clientKey("198.51.100.7"))
  })

  it("counts anything else as itself, and no address as one unknown client", () => {
    expect(clientKey("not an address")).toBe("not an address")
    expect(clientKey(undefined)).toBe("unknown")
  })
})
