import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Invalid } from "../Errors.ts"
import { described } from "../Doc.ts"
import { CreatePolicy, CreateProfile, Policy, Profile } from "../Policy.ts"
import { OwnerAuth } from "./OwnerAuth.ts"

export class PoliciesApi extends HttpApiGroup.make("policies")
  .add(
    HttpApiEndpoint.post("createPolicy", "/policies", { payload: CreatePolicy, success: Policy }).annotateMerge(OpenApi.annotations({
      summary: "Create a policy",
      description: "Stores a named rule of what an agent may pay for (services, methods, paths, recipients, assets; an empty list allows any), with its on-chain policy id."
    })),
    HttpApiEndpoint.get("listPolicies", "/policies", { success: Schema.Struct({ policies: described(Schema.Array(Policy), "All your policies, oldest first.") }) }).annotateMerge(OpenApi.annotations({
      summary: "List policies",
      description: "The calling owner's policies."
    })),
    HttpApiEndpoint.post("createProfile", "/profiles", { payload: CreateProfile, success: Profile, error: Invalid }).annotateMerge(OpenApi.annotations({
      summary: "Create a profile",
      description: "Stores a named set of policies; a delegated signer created with a profile carries their rules."
    })),
    HttpApiEndpoint.get("listProfiles", "/profiles", { success: Schema.Struct({ profiles: described(Schema.Array(Profile), "All your profiles, oldest first.") }) }).annotateMerge(OpenApi.annotations({
      summary: "List profiles",
      description: "The calling owner's profiles."
    }))
  )
  .middleware(OwnerAuth)
  .prefix("/v1")
{}
