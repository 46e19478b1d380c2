import type { AddressInfo } from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { createGatewayServer } from "./GatewayNodeServer.ts"

describe("the gateway's node:http server", () => {
  it("answers 503 with the error body until the app's handler is attached, then leaves requests to it", async () => {
    const server = createGatewayServer()
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`
    try {
      const starting = await fetch(url)
      assert.strictEqual(starting.status, 503)
      assert.deepStrictEqual(await starting.json(), { ok: false, code: "UNAVAILABLE", message: "The gateway is starting", reason: "starting" })
      server.on("request", (_request, response) => response.end("app"))
      const served = await fetch(url)
      assert.strictEqual(served.status, 200)
      assert.strictEqual(await served.text(), "app")
    } finally {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
