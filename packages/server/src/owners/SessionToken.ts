import { createHash, randomBytes } from "node:crypto"

/** A new opaque bearer token for a session. */
export const newSessionToken = () => randomBytes(32).toString("base64url")

/** What the store keeps of a session token: its SHA-256, never the token. */
export const tokenHashOf = (token: string) => createHash("sha256").update(token).digest("hex")
