import type { Schema } from "effect"

/**
 * A field's description as `/openapi.json` shows it, set as the key annotation: a branded or filtered schema's own
 * description is not carried into the JSON Schema, the key's always is.
 */
export const described = <S extends Schema.Top>(schema: S, description: string) => schema.annotateKey({ description })
