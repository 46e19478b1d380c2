/** The methods a service is paid for and called with: its declared one, and HEAD beside GET. */
export const allowedMethods = (declared: string): ReadonlyArray<string> => declared === "GET" ? ["GET", "HEAD"] : [declared]

/** Whether the seller receives the caller's body, and so whether a proof hashes it: never for GET and HEAD, whatever was sent. */
export const carriesBody = (method: string): boolean => method !== "GET" && method !== "HEAD"
