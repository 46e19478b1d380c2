import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "@gateway/domain/api/Api"
import { CurrentOwner } from "@gateway/domain/api/OwnerAuth"
import { Policies } from "./Policies.ts"

export const PoliciesHandlers = HttpApiBuilder.group(
  Api,
  "policies",
  Effect.fn(function*(handlers) {
    const policies = yield* Policies
    return handlers
      .handle("createPolicy", ({ payload }) => CurrentOwner.use((o) => policies.createPolicy(o.address, payload)))
      .handle("listPolicies", () =>
        CurrentOwner.use((o) => Effect.map(policies.listPolicies(o.address), (list) => ({ policies: list }))))
      .handle("createProfile", ({ payload }) => CurrentOwner.use((o) => policies.createProfile(o.address, payload)))
      .handle("listProfiles", () =>
        CurrentOwner.use((o) => Effect.map(policies.listProfiles(o.address), (list) => ({ profiles: list }))))
  })
)
