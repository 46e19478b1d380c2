import { Conflict, Invalid, NotFound } from "@gateway/domain/Errors"

// Shared so every signer use case words the same error the same way.
export const invalid = (reason: string) => new Invalid({ message: "The request is invalid", reason })
export const notFound = (what: string) => new NotFound({ message: `No such ${what}`, reason: `unknown_${what.replace(/ /g, "_")}` })
export const conflict = (reason: string) => new Conflict({ message: "The request conflicts with the current state", reason })
