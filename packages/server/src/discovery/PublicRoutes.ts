import { OpenApi } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"

/** A route of the API as the documents list it. */
export interface PublicRoute {
  readonly method: string
  readonly path: string
  readonly authenticated: boolean
}

let routes: ReadonlyArray<PublicRoute> | undefined

/**
 * Every public route of the API definition, so the documents never drift from what is served. Worked out on first
 * use, not when the module loads: building the OpenAPI document takes about 100 ms of every start-up otherwise.
 */
export const publicRoutes = (): ReadonlyArray<PublicRoute> => {
  routes ??= Object.entries(OpenApi.fromApi(Api).paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { summary?: string; operationId?: string; security?: ReadonlyArray<unknown> }>)
      .filter(([, op]) => typeof op === "object" && op !== null && "operationId" in op)
      .map(([method, op]) => ({ method: method.toUpperCase(), path, authenticated: (op.security ?? []).length > 0 }))
  )
  return routes
}
