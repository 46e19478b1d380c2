import { NotFound } from "@gateway/domain/Errors"

/** A service that does not exist, is not the caller's, or is not live: callers cannot tell which. */
export const unknownService = () => new NotFound({ message: "No such service", reason: "unknown_service" })
