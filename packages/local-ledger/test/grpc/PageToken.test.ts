import { GrpcTypes, RpcError } from "@mysten/sui/grpc"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { normalizeStructTag, normalizeSuiAddress } from "@mysten/sui/utils"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { decodePageToken, encodePageToken, MAX_PAGE_SIZE, ownedObjectsPageSize } from "../../src/grpc/PageToken.ts"
import { LocalLedger } from "../../src/LocalLedger.ts"
import { Client, ledgerLayer, promise } from "../LedgerHarness.ts"

const OWNER = normalizeSuiAddress("0xa11ce")
const OTHER = normalizeSuiAddress("0xb0b")
const SUI_COIN = normalizeStructTag(`0x2::coin::Coin<${SUI_COIN_TYPE}>`)
const NEXT = normalizeSuiAddress("0x5")

type Request = { readonly owner: string; readonly objectType: string | undefined }

/** The object `token` resumes at, for `request`. */
const resumed = (token: Uint8Array, request: Request) => Effect.runSync(decodePageToken(token, request))

/** What decoding `token` for `request` fails with. */
const refusal = (token: Uint8Array, request: Request) => Effect.runSync(Effect.flip(decodePageToken(token, request)))

describe("ListOwnedObjects' page tokens", () => {
  it("resume where they were issued, for the request they were issued for", () => {
    const token = encodePageToken({ owner: OWNER, objectType: SUI_COIN, next: NEXT })
    assert.strictEqual(resumed(token, { owner: OWNER, objectType: SUI_COIN }), NEXT)
    // Opaque: neither the object id nor an index a client could write itself.
    assert.notStrictEqual(new TextDecoder().decode(token), NEXT)
    assert.isAbove(token.length, 32)
  })

  it("are INVALID_ARGUMENT for another owner, another type filter, an edited token or bytes the ledger never issued", () => {
    const token = encodePageToken({ owner: OWNER, objectType: undefined, next: NEXT })
    const edited = Uint8Array.from(token)
    edited[edited.length - 20] = (edited[edited.length - 20] ?? 0) ^ 1
    for (
      const failure of [
        refusal(token, { owner: OTHER, objectType: undefined }),
        refusal(token, { owner: OWNER, objectType: SUI_COIN }),
        refusal(edited, { owner: OWNER, objectType: undefined }),
        refusal(new TextEncoder().encode(NEXT), { owner: OWNER, objectType: undefined }),
        refusal(new Uint8Array(), { owner: OWNER, objectType: undefined })
      ]
    ) {
      assert.strictEqual(failure.code, "INVALID_ARGUMENT")
      assert.strictEqual(failure.message, "invalid page_token")
    }
  })

  it("page 50 objects unless asked, and between 1 and 1000 when asked, as a full node does", () => {
    assert.strictEqual(ownedObjectsPageSize(undefined), 50)
    assert.strictEqual(ownedObjectsPageSize(0), 1)
    assert.strictEqual(ownedObjectsPageSize(7), 7)
    assert.strictEqual(ownedObjectsPageSize(5_000), MAX_PAGE_SIZE)
  })
})

layer(ledgerLayer())("ListOwnedObjects over the gRPC-web front", (it) => {
  it.effect("pages with opaque tokens, clamps the page size, and refuses a token reused for another owner or type", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const ledger = yield* LocalLedger
      const owner = Ed25519Keypair.generate().toSuiAddress()
      const other = Ed25519Keypair.generate().toSuiAddress()
      for (let i = 0; i < 3; i++) yield* ledger.mint(owner, SUI_COIN_TYPE, BigInt(i + 1))
      yield* ledger.mint(other, SUI_COIN_TYPE, 1n)
      const list = (request: Partial<GrpcTypes.ListOwnedObjectsRequest>) =>
        promise(() => client.stateService.listOwnedObjects({ owner, ...request }).response)

      // A page size of 0 is clamped up to 1, not taken as "the default".
      const first = yield* list({ pageSize: 0 })
      assert.strictEqual(first.objects.length, 1)
      const token = first.nextPageToken ?? assert.fail("no next page")
      const [firstId = ""] = first.objects.map((o) => o.objectId ?? "")
      assert.notInclude(new TextDecoder().decode(token), firstId.slice(2, 10), "the token is not the object id")

      // Without a mask, a node answers id, version and type.
      const rest = yield* list({ pageToken: token })
      assert.strictEqual(rest.objects.length, 2)
      assert.isUndefined(rest.nextPageToken)
      assert.deepStrictEqual(Object.keys(rest.objects[0] ?? {}).sort(), ["objectId", "objectType", "version"])
      assert.strictEqual(new Set([firstId, ...rest.objects.map((o) => o.objectId)]).size, 3)

      const refused = (request: Partial<GrpcTypes.ListOwnedObjectsRequest>) =>
        Effect.flip(Effect.tryPromise({ try: () => client.stateService.listOwnedObjects({ owner, ...request }).response, catch: (error) => error }))
      for (
        const failure of [
          yield* refused({ owner: other, pageToken: token }),
          yield* refused({ objectType: `0x2::coin::Coin<${SUI_COIN_TYPE}>`, pageToken: token }),
          yield* refused({ pageToken: new TextEncoder().encode(firstId) })
        ]
      ) {
        assert.isTrue(failure instanceof RpcError && failure.code === "INVALID_ARGUMENT", String(failure))
      }
    }))
})
