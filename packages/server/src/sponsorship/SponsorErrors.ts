import { Invalid, Unavailable } from "@gateway/domain/Errors"

// Shared so every sponsorship use case words the same refusal the same way.
export const invalid = (reason: string) => new Invalid({ message: "The platform does not sponsor this transaction", reason })
export const unavailable = (message: string, reason: string) => new Unavailable({ message, reason })
