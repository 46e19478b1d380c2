/** The deepest nesting of objects and arrays a JSON request body may have; no API body needs more than a few levels. */
export const MAX_JSON_DEPTH = 64

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d

/**
 * Whether `text` nests objects and arrays more than `limit` levels deep, by
 * one scan that skips string contents (escapes included) and stops at the
 * first level over the limit, so a deep document costs no parse and no
 * recursion. It does not validate: for valid JSON the count is exact, and
 * malformed JSON is JSON.parse's to refuse.
 */
export const exceedsJsonDepth = (text: string, limit: number): boolean => {
  let depth = 0
  let inString = false
  let escaped = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (escaped) escaped = false
      else if (c === BACKSLASH) escaped = true
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) {
      inString = true
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth += 1
      if (depth > limit) return true
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth -= 1
    }
  }
  return false
}
