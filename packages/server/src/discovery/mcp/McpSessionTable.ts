/** How many MCP sessions a replica keeps, in all and per client, and how long one may sit unused. */
export interface McpSessionBounds {
  readonly maxSessions: number
  readonly perClient: number
  readonly idleMs: number
}

/** What a request on a session finds: the session in use, ended for idleness just now, or never seen here. */
export type SessionUse = "live" | "expired" | "unknown"

interface Entry {
  readonly client: string
  lastUsed: number
}

/** The first (least recently used) of an insertion-ordered collection. */
const first = (ids: Iterable<string>): string | undefined => {
  for (const id of ids) return id
  return undefined
}

/**
 * The MCP sessions a replica holds, by `Mcp-Session-Id`, in order of last use
 * (a Map keeps insertion order, and a use moves its session to the end), and
 * each client's the same way: the longest idle session, in all or of one
 * client, is always the first. It only decides; ending a session in the
 * transport is the caller's. Bounds below 1 count as 1.
 */
export class McpSessionTable {
  readonly #all = new Map<string, Entry>()
  readonly #byClient = new Map<string, Set<string>>()
  readonly #max: number
  readonly #perClient: number
  readonly #idleMs: number

  constructor(bounds: McpSessionBounds) {
    this.#max = Math.max(1, bounds.maxSessions)
    this.#perClient = Math.max(1, bounds.perClient)
    this.#idleMs = bounds.idleMs
  }

  get size() {
    return this.#all.size
  }

  /** A request on session `id` at `now`: a live session counts as used; one idle too long is removed, to be ended. */
  use(id: string, now: number): SessionUse {
    const entry = this.#all.get(id)
    if (entry === undefined) return "unknown"
    if (now - entry.lastUsed > this.#idleMs) {
      this.remove(id)
      return "expired"
    }
    entry.lastUsed = now
    this.#all.delete(id)
    this.#all.set(id, entry)
    const mine = this.#byClient.get(entry.client)
    mine?.delete(id)
    mine?.add(id)
    return "live"
  }

  /**
   * A session `client` has just started: the sessions to end so the table
   * stays within its bounds, idle ones first, then the client's own longest
   * idle beyond its share, then the longest idle of all beyond the maximum.
   */
  add(id: string, client: string, now: number): ReadonlyArray<string> {
    const ended = [...this.expire(now)]
    // Each bound is at least 1, so a collection at its bound is never empty.
    const endFirst = (ids: Iterable<string>) => {
      const oldest = first(ids)
      if (oldest !== undefined && this.remove(oldest)) ended.push(oldest)
    }
    while ((this.#byClient.get(client)?.size ?? 0) >= this.#perClient) endFirst(this.#byClient.get(client) ?? [])
    while (this.#all.size >= this.#max) endFirst(this.#all.keys())
    this.#all.set(id, { client, lastUsed: now })
    const mine = this.#byClient.get(client) ?? new Set<string>()
    mine.add(id)
    this.#byClient.set(client, mine)
    return ended
  }

  /** Forgets session `id` (ended by its client, or by the caller); true when it was held. */
  remove(id: string): boolean {
    const entry = this.#all.get(id)
    if (entry === undefined) return false
    this.#all.delete(id)
    const mine = this.#byClient.get(entry.client)
    mine?.delete(id)
    if (mine?.size === 0) this.#byClient.delete(entry.client)
    return true
  }

  /** Removes and returns the sessions unused for longer than the idle bound (oldest first, so the scan stops at the first fresh one). */
  expire(now: number): ReadonlyArray<string> {
    const idle: Array<string> = []
    for (const [id, entry] of this.#all) {
      if (now - entry.lastUsed <= this.#idleMs) break
      idle.push(id)
    }
    for (const id of idle) this.remove(id)
    return idle
  }
}
