import { bcs } from "@mysten/sui/bcs"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { blake2b } from "@noble/hashes/blake2.js"
import { Effect } from "effect"
import { GrpcFailure } from "./GrpcFailure.ts"

/**
 * ListOwnedObjects' paging as a full node pages it (sui-rpc-api
 * `list_owned_objects.rs`): 50 objects unless asked, between 1 and 1000 when
 * asked, and a page ends early once it holds 512 KiB.
 */
export const DEFAULT_PAGE_SIZE = 50
export const MAX_PAGE_SIZE = 1000
export const MAX_PAGE_BYTES = 512 * 1024

export const ownedObjectsPageSize = (asked: number | undefined) => (asked === undefined ? DEFAULT_PAGE_SIZE : Math.min(Math.max(asked, 1), MAX_PAGE_SIZE))

/** The request a token was issued for, and the object the next page starts at (as a node's token holds its next cursor). */
export interface OwnedObjectsCursor {
  readonly owner: string
  /** The type filter, normalized; none for every object. */
  readonly objectType: string | undefined
  readonly next: string
}

const TokenBody = bcs.struct("OwnedObjectsPageToken", { owner: bcs.Address, objectType: bcs.option(bcs.string()), next: bcs.Address })

/** A checksum over the body: a token is only good as this ledger issued it, so an edited or made-up one is refused. */
const TAG_BYTES = 16
const TAG_KEY = new TextEncoder().encode("local-ledger/ListOwnedObjects/page-token")
const tagOf = (body: Uint8Array) => blake2b(body, { dkLen: TAG_BYTES, key: TAG_KEY })

const invalidToken = new GrpcFailure({ code: "INVALID_ARGUMENT", message: "invalid page_token" })

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i])

export const encodePageToken = (cursor: OwnedObjectsCursor): Uint8Array => {
  const body = TokenBody.serialize({ owner: cursor.owner, objectType: cursor.objectType ?? null, next: cursor.next }).toBytes()
  const token = new Uint8Array(body.length + TAG_BYTES)
  token.set(body)
  token.set(tagOf(body), body.length)
  return token
}

/**
 * The object a token says the next page starts at, once it is checked:
 * INVALID_ARGUMENT, as a full node answers, for a token that is not one this
 * ledger issued or that was issued for another owner or type filter.
 */
export const decodePageToken = (
  token: Uint8Array,
  request: { readonly owner: string; readonly objectType: string | undefined }
): Effect.Effect<string, GrpcFailure> => {
  const body = token.subarray(0, Math.max(token.length - TAG_BYTES, 0))
  if (token.length <= TAG_BYTES || !sameBytes(tagOf(body), token.subarray(body.length))) return Effect.fail(invalidToken)
  const parsed = Effect.try({ try: () => TokenBody.parse(body), catch: () => invalidToken })
  return Effect.flatMap(parsed, (cursor) =>
    normalizeSuiAddress(cursor.owner) === normalizeSuiAddress(request.owner) && (cursor.objectType ?? undefined) === request.objectType
      ? Effect.succeed(normalizeSuiAddress(cursor.next))
      : Effect.fail(invalidToken))
}
