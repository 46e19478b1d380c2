import { Unauthenticated } from "@gateway/domain/Errors"

// Shared so every refusal of a credential words it the same way; only the reason differs.
export const unauthenticated = (reason: string) => new Unauthenticated({ message: "A verified owner session is required", reason })
