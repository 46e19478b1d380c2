import type { GrpcTypes } from "@mysten/sui/grpc"

type FieldMask = GrpcTypes.GetObjectRequest["readMask"]

interface MaskTree {
  readonly [field: string]: MaskTree
}

const camel = (field: string) => field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())

/** A path names its whole subtree, so a shorter path wins over longer ones under it (`effects` over `effects.status`). */
const treeOf = (paths: ReadonlyArray<string>): MaskTree => {
  const whole = new Set<Record<string, unknown>>()
  const root: Record<string, unknown> = {}
  for (const path of paths) {
    const fields = path.split(".").map(camel)
    let node = root
    for (const [index, field] of fields.entries()) {
      if (whole.has(node)) break
      const last = index === fields.length - 1
      const next = (last ? {} : (node[field] ?? {})) as Record<string, unknown>
      node[field] = next
      if (last) whole.add(next)
      node = next
    }
  }
  return root as MaskTree
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !(value instanceof Uint8Array)

/** Keeps the fields the tree names; a named leaf keeps its whole value, repeated fields left out become empty, others absent. */
const prune = (value: unknown, tree: MaskTree): unknown => {
  if (Array.isArray(value)) return value.map((element) => prune(element, tree))
  if (!isRecord(value) || Object.keys(tree).length === 0) return value
  const kept: Record<string, unknown> = {}
  for (const [field, fieldValue] of Object.entries(value)) {
    const subtree = tree[field]
    if (subtree !== undefined) kept[field] = prune(fieldValue, subtree)
    else if (Array.isArray(fieldValue)) kept[field] = []
    // a oneof keeps its discriminator so the message still encodes
    else if (field === "oneofKind") kept[field] = fieldValue
  }
  return kept
}

/**
 * Applies a read mask as a full node does: only the requested fields are
 * set (paths in snake_case, nested with dots); no mask means `defaults`.
 */
export const applyReadMask = <T extends object>(message: T, mask: FieldMask, defaults: ReadonlyArray<string>): T =>
  // The pruned value keeps T's shape: only optional fields are dropped and repeated ones emptied.
  prune(message, maskTree(mask, defaults)) as T

/** The mask's paths as a tree; no mask means `defaults`. */
const maskTree = (mask: FieldMask, defaults: ReadonlyArray<string>) => treeOf(mask === undefined || mask.paths.length === 0 ? defaults : mask.paths)

/**
 * The fields a mask keeps of the message at `prefix` (dotted, snake_case;
 * `""` for the root), camelCase; undefined when it keeps that message whole.
 * Lets a message be built only as far as the mask will keep it.
 */
export const maskedFields = (mask: FieldMask, defaults: ReadonlyArray<string>, prefix: string): ReadonlySet<string> | undefined => {
  let node = maskTree(mask, defaults)
  for (const field of prefix === "" ? [] : prefix.split(".").map(camel)) {
    const next = node[field]
    if (next === undefined) return new Set()
    // A leaf of the tree is a path the mask names whole.
    if (Object.keys(next).length === 0) return undefined
    node = next
  }
  return new Set(Object.keys(node))
}
