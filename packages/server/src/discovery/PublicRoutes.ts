import { OpenApi } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"

/** A route of the API as the documents list it. */
export interface PublicRoute {
  readonly method: string
  readonly path: string
  readonly authenticated: boolean
}

/** Every public route of the API definition, so the documents never drift from what is served. */
export const publicRoutes: ReadonlyArray<PublicRoute> = (() => {
  const spec = OpenApi.fromApi(Api)
  return Object.entries(spec.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { summary?: string; operationId?: string; security?: ReadonlyArray<unknown> }>)
      .filter(([, op]) => typeof op === "object" && op !== null && "operationId" in op)
      .map(([method, op]) => ({ method: method.toUpperCase(), path, authenticated: (op.security ?? []).length > 0 }))
  )
})()
