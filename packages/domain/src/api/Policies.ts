import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Invalid } from "../Errors.ts"
import { CreatePolicy, CreateProfile, Policy, Profile } from "../Policy.ts"
import { OwnerAuth } from "./OwnerAuth.ts"

export class PoliciesApi extends HttpApiGroup.make("policies")
  .add(
    HttpApiEndpoint.post("createPolicy", "/policies", { payload: CreatePolicy, success: Policy }),
    HttpApiEndpoint.get("listPolicies", "/policies", { success: Schema.Struct({ policies: Schema.Array(Policy) }) }),
    HttpApiEndpoint.post("createProfile", "/profiles", { payload: CreateProfile, success: Profile, error: Invalid }),
    HttpApiEndpoint.get("listProfiles", "/profiles", { success: Schema.Struct({ profiles: Schema.Array(Profile) }) })
  )
  .middleware(OwnerAuth)
  .prefix("/v1")
{}
