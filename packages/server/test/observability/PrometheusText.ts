/**
 * A strict reader of the Prometheus text exposition format 0.0.4, for tests: every line is a `# HELP`, a
 * `# TYPE`, another comment, or a sample of a family declared before it; anything else throws, naming the line.
 */

export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

export interface Family {
  readonly name: string
  readonly type: "counter" | "gauge" | "histogram" | "summary" | "untyped"
  readonly help: string | undefined
  readonly samples: ReadonlyArray<Sample>
}

const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*"
const HELP = new RegExp(`^# HELP (${NAME}) ((?:[^\\\\\\n]|\\\\[\\\\n])*)$`)
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`)
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?[0-9]+))?$`)
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"(,|$)/
const VALUE = /^(?:[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|NaN|[+-]Inf)$/

const unescape = (text: string) => text.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c))

const parseValue = (text: string) => (text === "+Inf" ? Infinity : text === "-Inf" ? -Infinity : Number(text))

const parseLabels = (text: string | undefined, line: string): Record<string, string> => {
  const labels: Record<string, string> = {}
  let rest = text ?? ""
  while (rest.length > 0) {
    const match = LABEL.exec(rest)
    if (match === null) throw new Error(`Invalid labels in line: ${line}`)
    const [whole, name, value] = match as unknown as [string, string, string]
    if (name in labels) throw new Error(`Repeated label ${name} in line: ${line}`)
    labels[name] = unescape(value)
    rest = rest.slice(whole.length)
  }
  return labels
}

/** The family a sample belongs to: its own name, or a histogram's or summary's with `_bucket`, `_sum` or `_count` cut. */
const familyOf = (families: Map<string, { type: Family["type"] }>, name: string) => {
  if (families.has(name)) return name
  const base = name.replace(/_(bucket|sum|count)$/, "")
  const family = families.get(base)
  return family !== undefined && (family.type === "histogram" || family.type === "summary") ? base : undefined
}

export const parsePrometheusText = (text: string): ReadonlyArray<Family> => {
  if (text.length > 0 && !text.endsWith("\n")) throw new Error("The exposition does not end with a line feed")
  const families = new Map<string, { type: Family["type"]; help: string | undefined; samples: Array<Sample> }>()
  const helps = new Map<string, string>()
  for (const line of text.split("\n").slice(0, -1)) {
    const [, helpName, helpText] = HELP.exec(line) ?? []
    const [, typeName, typeKind] = TYPE.exec(line) ?? []
    if (helpName !== undefined && helpText !== undefined) {
      if (helps.has(helpName)) throw new Error(`Repeated HELP: ${line}`)
      helps.set(helpName, unescape(helpText))
    } else if (typeName !== undefined && typeKind !== undefined) {
      if (families.has(typeName)) throw new Error(`Repeated TYPE: ${line}`)
      families.set(typeName, { type: typeKind as Family["type"], help: helps.get(typeName), samples: [] })
    } else if (line.startsWith("#")) {
      if (line.startsWith("# HELP") || line.startsWith("# TYPE")) throw new Error(`Invalid comment line: ${line}`)
    } else {
      const [, name, labels, value] = SAMPLE.exec(line) ?? []
      if (name === undefined || value === undefined || !VALUE.test(value)) throw new Error(`Invalid sample line: ${JSON.stringify(line)}`)
      const family = familyOf(families, name)
      const samples = family === undefined ? undefined : families.get(family)?.samples
      if (samples === undefined) throw new Error(`Sample of no declared family: ${line}`)
      samples.push({ name, labels: parseLabels(labels, line), value: parseValue(value) })
    }
  }
  return [...families].map(([name, family]) => ({ name, ...family }))
}

/** The value of the one sample of that name whose labels include `labels`, or undefined. */
export const sampleValue = (families: ReadonlyArray<Family>, name: string, labels: Record<string, string>) => {
  const found = families
    .flatMap((f) => f.samples)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`)
  return found[0]?.value
}

/** A histogram's series checked whole: cumulative buckets, ending at `+Inf` with the series' `_count`. */
export const checkHistogram = (family: Family) => {
  const series = new Map<string, Array<Sample>>()
  for (const sample of family.samples) {
    const { le: _, ...rest } = sample.labels
    const key = JSON.stringify(Object.entries(rest).sort())
    series.set(key, [...(series.get(key) ?? []), sample])
  }
  for (const samples of series.values()) {
    const buckets = samples.filter((s) => s.name === `${family.name}_bucket`)
    const count = samples.find((s) => s.name === `${family.name}_count`)?.value
    if (samples.find((s) => s.name === `${family.name}_sum`) === undefined) throw new Error(`${family.name}: a series without _sum`)
    const bounds = buckets.map((b) => parseValue(b.labels["le"] ?? "missing"))
    if (bounds.some(Number.isNaN) || bounds.at(-1) !== Infinity) throw new Error(`${family.name}: buckets not ending at le="+Inf"`)
    if (bounds.some((b, i) => i > 0 && b <= (bounds[i - 1] ?? -Infinity))) throw new Error(`${family.name}: bucket bounds not increasing`)
    if (buckets.some((b, i) => i > 0 && b.value < (buckets[i - 1]?.value ?? -Infinity))) throw new Error(`${family.name}: buckets not cumulative`)
    if (buckets.at(-1)?.value !== count) throw new Error(`${family.name}: the +Inf bucket is not _count`)
  }
}
