import { createHash } from "node:crypto"
import { blake2b } from "@noble/hashes/blake2.js"
import { bcs } from "@mysten/sui/bcs"
import type { Keypair } from "@mysten/sui/cryptography"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Secp256k1Keypair } from "@mysten/sui/keypairs/secp256k1"
import { fromBase64, toBase64 } from "@mysten/sui/utils"
import { verifyTransactionSignature } from "@mysten/sui/verify"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { WindowKind } from "@gateway/domain/chain/GrantWindow"
import { normalizeCoinType, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { decodeBase64, encodeBase64 } from "@gateway/chain/Base64"
import { applyReadMask, maskedFields } from "../src/grpc/ReadMask.ts"
import { genesisObjects, type LedgerObject, objectBcs, objectContentsOf, objectDigest, type ObjectData, type Owner, withStorageRebate, withVersion } from "../src/LedgerObject.ts"
import { transactionSignedBy } from "@gateway/chain/SuiSignatures"
import { addr, PACKAGE } from "./vectors/World.ts"

const ORIGINAL = PACKAGE.originalId

/** A structurally equal copy: a new value, so nothing computed for the original is reused for it. */
const copy = (object: Omit<LedgerObject, "digest">): Omit<LedgerObject, "digest"> => ({ ...object, data: { ...object.data } })

const Data: fc.Arbitrary<ObjectData> = fc.oneof(
  fc.record({ _tag: fc.constant("Coin" as const), coinType: fc.constantFrom(normalizeCoinType(SUI_COIN_TYPE), normalizeCoinType(`${addr(0xc0)}::usdc::USDC`)), balance: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) }),
  fc.record({
    _tag: fc.constant("Pool" as const),
    coinType: fc.constant(normalizeCoinType(SUI_COIN_TYPE)),
    version: fc.bigInt({ min: 0n, max: 5n }),
    owner: fc.nat().map(addr),
    balance: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    noncesId: fc.nat().map(addr),
    nonces: fc.array(
      fc.record({ nonce: fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 2, maxLength: 8 }), deadlineMs: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) }),
      { maxLength: 4 }
    )
  }),
  fc.record({
    _tag: fc.constant("Grant" as const),
    version: fc.bigInt({ min: 0n, max: 5n }),
    poolId: fc.nat().map(addr),
    owner: fc.nat().map(addr),
    delegate: fc.nat().map(addr),
    sessionCap: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    spent: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    maxPerPayment: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    expiryMs: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
    window: fc.record({
      kind: fc.constantFrom(WindowKind.none, WindowKind.period, WindowKind.calendarMonth),
      periodMs: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
      limit: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
      startMs: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
      spent: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })
    }),
    recipients: fc.array(fc.nat().map(addr), { maxLength: 16 }),
    paused: fc.boolean(),
    revoked: fc.boolean(),
    policyIds: fc.array(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), { maxLength: 3 }),
    kind: fc.nat({ max: 255 })
  }),
  fc.record({ _tag: fc.constant("Registry" as const), version: fc.bigInt({ min: 0n, max: 5n }) }),
  fc.constant({ _tag: "AdminCap" as const })
)

const OwnerArb: fc.Arbitrary<Owner> = fc.oneof(
  fc.nat().map((n): Owner => ({ _tag: "Address", address: addr(n) })),
  fc.bigInt({ min: 0n, max: 9n }).map((v): Owner => ({ _tag: "Shared", initialSharedVersion: v + 1n }))
)

const Written = fc.record({
  id: fc.nat().map(addr),
  version: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  owner: OwnerArb,
  createdBy: fc.constant(genesisObjects(PACKAGE)[0]?.previousTransaction ?? ""),
  previousTransaction: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => bcs.ObjectDigest.parse(bcs.byteVector().serialize(bytes).toBytes())),
  storageRebate: fc.constant(0n),
  data: Data
})

describe("an object version's encoding", () => {
  it("is the same written from its priced bytes with a rebate as serialized afresh with that rebate", () =>
    fc.assert(
      fc.property(Written, fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (written, rebate) => {
        objectBcs(written, ORIGINAL)
        const fromPriced = withStorageRebate(written, rebate, ORIGINAL)
        const afresh = withVersion({ ...copy(written), storageRebate: rebate }, written.version, ORIGINAL)
        assert.strictEqual(fromPriced.digest, afresh.digest)
        assert.deepStrictEqual(objectBcs(fromPriced, ORIGINAL), objectBcs(copy(afresh), ORIGINAL))
        assert.deepStrictEqual(objectContentsOf(fromPriced, ORIGINAL), objectContentsOf(copy(afresh), ORIGINAL))
        assert.strictEqual(BigInt(bcs.Object.parse(objectBcs(fromPriced, ORIGINAL)).storageRebate), rebate)
      })
    ))

  it("keeps the digest it was made with, and reads the same bytes again", () =>
    fc.assert(
      fc.property(Written, (written) => {
        const object = withVersion(written, written.version, ORIGINAL)
        assert.strictEqual(objectDigest(copy(object), ORIGINAL), object.digest)
        assert.deepStrictEqual(objectBcs(object, ORIGINAL), objectBcs(copy(object), ORIGINAL))
      })
    ))

  it("shows the Clock at the time asked for, whatever time was asked before, and digests it at 0", () => {
    const clock = genesisObjects(PACKAGE).find((object) => object.data._tag === "Clock")
    if (clock === undefined) return assert.fail("genesis has no Clock")
    const at = (nowMs: bigint) => bcs.Object.parse(objectBcs(clock, ORIGINAL, nowMs)).data.Move?.contents
    const later = at(5_000n)
    assert.notDeepEqual(later, at(0n))
    assert.deepStrictEqual(at(5_000n), later)
    objectBcs(clock, ORIGINAL, 7_000n)
    assert.strictEqual(objectDigest(clock, ORIGINAL), clock.digest)
    assert.deepStrictEqual(objectBcs(clock, ORIGINAL), objectBcs(copy(clock), ORIGINAL))
  })
})

// === Signatures ===

/** Ed25519's group order: S + L is the same scalar, encoded non-canonically, which Sui refuses. */
const L = 2n ** 252n + 27742317777372353535851937790883648493n

const littleEndian = (bytes: Uint8Array) => bytes.reduceRight((n, byte) => (n << 8n) + BigInt(byte), 0n)
const toLittleEndian = (n: bigint) => Uint8Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn))

const Tamper = fc.constantFrom("none", "signature bit", "message bit", "public key", "non-canonical S", "other signer", "truncated", "not base64")

const tampered = async (how: string, key: Keypair, other: Keypair, message: Uint8Array) => {
  const { signature } = await key.signTransaction(message)
  const bytes = fromBase64(signature)
  switch (how) {
    case "signature bit":
      bytes[7] = (bytes[7] ?? 0) ^ 0x10
      return { message, signature: toBase64(bytes) }
    case "message bit":
      return { message: Uint8Array.from(message, (b, i) => (i === 0 ? b ^ 1 : b)), signature }
    case "public key":
      bytes.set(other.getPublicKey().toRawBytes(), bytes.length - 32)
      return { message, signature: toBase64(bytes) }
    case "non-canonical S":
      bytes.set(toLittleEndian(littleEndian(bytes.subarray(33, 65)) + L), 33)
      return { message, signature: toBase64(bytes) }
    case "other signer":
      return { message, signature: (await other.signTransaction(message)).signature }
    case "truncated":
      return { message, signature: toBase64(bytes.subarray(0, bytes.length - 1)) }
    case "not base64":
      return { message, signature: "not base64!" }
    default:
      return { message, signature }
  }
}

const sdkAccepts = (message: Uint8Array, signature: string, address: string) =>
  verifyTransactionSignature(message, signature, { address }).then(() => true, () => false)

describe("the ledger's signature check", () => {
  it.effect("answers as the SDK's verifier does, for Ed25519 signed, tampered or misattributed, and for Secp256k1", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ minLength: 32, maxLength: 32 }),
          fc.uint8Array({ minLength: 32, maxLength: 32 }),
          fc.uint8Array({ minLength: 1, maxLength: 300 }),
          Tamper,
          fc.boolean(),
          async (secret, otherSecret, message, how, secp) => {
            const key: Keypair = secp ? Secp256k1Keypair.fromSecretKey(secret) : Ed25519Keypair.fromSecretKey(secret)
            const other = Ed25519Keypair.fromSecretKey(otherSecret)
            const sent = await tampered(how, key, other, message)
            for (const address of [key.toSuiAddress(), other.toSuiAddress()]) {
              const ours = await transactionSignedBy(sent.message, sent.signature, address)
              assert.strictEqual(ours, await sdkAccepts(sent.message, sent.signature, address), `${how} for ${address === key.toSuiAddress() ? "the signer" : "another"}`)
            }
          }
        ),
        { numRuns: 150 }
      )
    ))

  it("leaves Blake2b-256 to noble: Node's OpenSSL has only Blake2b-512, whose first 32 bytes are another hash", () => {
    const input = new TextEncoder().encode("TransactionData::")
    assert.throws(() => createHash("blake2b512", { outputLength: 32 }))
    assert.notDeepEqual(new Uint8Array(createHash("blake2b512").update(input).digest().subarray(0, 32)), blake2b(input, { dkLen: 32 }))
  })
})

describe("base64", () => {
  const sdkDecode = (text: string) => {
    try {
      return fromBase64(text)
    } catch {
      return "refused"
    }
  }
  const ourDecode = (text: string) => {
    try {
      return decodeBase64(text)
    } catch {
      return "refused"
    }
  }

  it("encodes as the SDK does and decodes its own encoding back", () =>
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat({ max: 8 }), (bytes, offset) => {
        const view = new Uint8Array([...new Uint8Array(offset), ...bytes]).subarray(offset)
        assert.strictEqual(encodeBase64(view), toBase64(bytes))
        const decoded = decodeBase64(toBase64(bytes))
        assert.deepStrictEqual(decoded, bytes)
        assert.strictEqual(Object.getPrototypeOf(decoded), Uint8Array.prototype)
      })
    ))

  it("decodes, or refuses, any text as the SDK does: unpadded, spaced, cut short or not base64 at all", () =>
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."AQZaz09+/=  -_\n!"), maxLength: 24 }), (text) => {
        assert.deepStrictEqual(ourDecode(text), sdkDecode(text))
      }),
      { numRuns: 2000 }
    ))
})

describe("a read mask's fields", () => {
  /** A message with scalars, nested messages and repeated fields at the top and below. */
  const full = {
    digest: "d",
    transaction: { digest: "t", sender: "s", kind: { inputs: [{ pure: "p" }] } },
    signatures: [{ bcs: "b" }],
    effects: { status: { success: true }, changedObjects: [{ objectId: "o", objectType: "T" }] },
    checkpoint: 3n,
    balanceChanges: [{ amount: "1" }],
    objects: { objects: [{ objectId: "o" }] }
  }
  type Full = typeof full
  const Path = fc.constantFrom(
    "digest",
    "transaction",
    "transaction.digest",
    "transaction.kind",
    "signatures",
    "effects",
    "effects.status",
    "effects.changed_objects.object_type",
    "checkpoint",
    "balance_changes",
    "objects",
    "objects.objects.object_id"
  )
  /** The message built only as far as `fields` reaches, as `executedTransactionProto` builds it. */
  const builtFor = (fields: ReadonlySet<string> | undefined): Full =>
    fields === undefined ? full : {
      ...full,
      ...(fields.has("signatures") ? {} : { signatures: [] }),
      ...(fields.has("balanceChanges") ? {} : { balanceChanges: [] }),
      ...Object.fromEntries(["transaction", "effects", "objects"].filter((field) => !fields.has(field)).map((field) => [field, undefined]))
    }

  it("keep the same message whether built whole or only as far as they reach", () =>
    fc.assert(
      fc.property(fc.array(Path, { maxLength: 5 }), (paths) => {
        const mask = { paths }
        const defaults = ["digest"]
        const strip = (message: Full) => JSON.parse(JSON.stringify(message, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value))) as unknown
        assert.deepStrictEqual(strip(applyReadMask(builtFor(maskedFields(mask, defaults, "")), mask, defaults)), strip(applyReadMask(full, mask, defaults)))
      })
    ))

  it("name the message whole when a path stops at it, and only what is under it otherwise", () => {
    assert.strictEqual(maskedFields({ paths: ["transaction", "command_outputs"] }, [], "transaction"), undefined)
    assert.deepStrictEqual(maskedFields({ paths: ["transaction.digest", "transaction.effects.status", "command_outputs"] }, [], "transaction"), new Set(["digest", "effects"]))
    assert.deepStrictEqual(maskedFields(undefined, ["balance_changes", "effects.status"], ""), new Set(["balanceChanges", "effects"]))
  })
})
