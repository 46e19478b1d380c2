/** The deepest nesting of objects and arrays a JSON request body may have; no API body needs more than a few levels. */
export const MAX_JSON_DEPTH = 64

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

/** The bounds a body's shape is held to: nesting levels, and items per array (at least 1). */
export interface JsonShapeLimits {
  readonly depth: number
  readonly items: number
}

/**
 * Which bound `text` goes over first, if any: nesting deeper than `depth` levels, or an array of more than `items`
 * items. One scan that skips string contents (escapes included), counts the commas at each array's own level, and
 * stops at the first excess, so an oversized document costs no parse and no recursion. It does not validate: for
 * valid JSON the counts are exact, and malformed JSON is JSON.parse's to refuse.
 */
export const jsonShapeOver = (text: string, limits: JsonShapeLimits): "depth" | "items" | undefined => {
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
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      commas.push(c === OPEN_ARRAY ? 0 : -1)
      if (commas.length > limits.depth) return "depth"
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      commas.pop()
    } else if (c === COMMA) {
      const top = commas.length - 1
      const seen = commas[top]
      if (seen !== undefined && seen >= 0) {
        commas[top] = seen + 1
        // n commas separate n + 1 items.
        if (seen + 2 > limits.items) return "items"
      }
    }
  }
  return undefined
}
