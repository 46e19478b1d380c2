import { Context } from "effect"

/**
 * Whether this replica is stopping: set on SIGTERM, before the server stops accepting, so `/health/ready` answers
 * 503 while requests are still served and a load balancer's probe takes the replica out of rotation first.
 * A Reference: the process provides one shared flag (main.ts); a server built without it is never stopping.
 */
export const Stopping = Context.Reference<{ stopping: boolean }>("@gateway/server/Stopping", { defaultValue: () => ({ stopping: false }) })
