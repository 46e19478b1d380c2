/**
 * The most items any array of a JSON request body may hold. No API field takes more than 64 (policy lists, ids,
 * asset scopes); the bound keeps "every invalid field at once" decoding from turning a 64 KiB body of tiny wrong
 * items (`[1,1,1,…]`, 32 000 of them) into as many issues: tens of milliseconds of CPU and megabytes of answer.
 */
export const MAX_JSON_ARRAY_ITEMS = 256

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const COMMA = 0x2c

/**
 * Whether an array of `text` holds more than `limit` (at least 1) items, by one scan that skips string contents (escapes
 * included), counts the commas at each array's own level and stops at the first array over the limit. Like
 * `exceedsJsonDepth`, it does not validate: for valid JSON the count is exact, malformed JSON is JSON.parse's.
 */
export const exceedsJsonArrayLength = (text: string, limit: number): boolean => {
  // Per open bracket: the commas seen at its level so far, or -1 for an object, whose commas are not items.
  const commas: Array<number> = []
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
    } else if (c === OPEN_ARRAY) {
      commas.push(0)
    } else if (c === OPEN_OBJECT) {
      commas.push(-1)
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      commas.pop()
    } else if (c === COMMA) {
      const top = commas.length - 1
      const seen = commas[top]
      if (seen !== undefined && seen >= 0) {
        commas[top] = seen + 1
        // n commas separate n + 1 items.
        if (seen + 2 > limit) return true
      }
    }
  }
  return false
}
