import { Clock, Context, Effect, Layer } from "effect"
import { Invalid, type Unavailable } from "@gateway/domain/Errors"
import type { PolicyId, ProfileId } from "@gateway/domain/Ids"
import { PolicyId as PolicyIdSchema, ProfileId as ProfileIdSchema } from "@gateway/domain/Ids"
import type { Policy, PolicyRule, Profile } from "@gateway/domain/Policy"
import type { SuiAddress } from "@gateway/domain/SuiAddress"
import { PolicyRepo } from "./PolicyRepo.ts"
import { newId } from "../storage/NewId.ts"

/** The immutable policy set a signer is created with; it never changes after create. */
export interface PolicySnapshot {
  readonly policyIds: ReadonlyArray<PolicyId>
  readonly onChainPolicyIds: ReadonlyArray<number>
  readonly rules: ReadonlyArray<PolicyRule>
}

export class Policies extends Context.Service<Policies, {
  createPolicy(owner: SuiAddress, input: { name: string; rule: PolicyRule }): Effect.Effect<Policy, Unavailable>
  listPolicies(owner: SuiAddress): Effect.Effect<ReadonlyArray<Policy>, Unavailable>
  createProfile(owner: SuiAddress, input: { name: string; policyIds: ReadonlyArray<PolicyId> }): Effect.Effect<Profile, Invalid | Unavailable>
  listProfiles(owner: SuiAddress): Effect.Effect<ReadonlyArray<Profile>, Unavailable>
  /** Resolves the owner's profile and policy ids into one snapshot; an unknown id is INVALID. */
  resolve(owner: SuiAddress, ids: { policyIds: ReadonlyArray<PolicyId>; profileIds: ReadonlyArray<ProfileId> }): Effect.Effect<PolicySnapshot, Invalid | Unavailable>
}>()("@gateway/server/Policies") {
  static readonly layer = Layer.effect(
    Policies,
    Effect.gen(function*() {
      const repo = yield* PolicyRepo
      const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

      const unknownIds = (field: string, wanted: ReadonlyArray<string>, found: ReadonlyArray<{ id: string }>) => {
        const known = new Set(found.map((row) => row.id))
        const index = wanted.findIndex((id) => !known.has(id))
        return index === -1
          ? Effect.void
          : Effect.fail(new Invalid({ message: "The request is invalid", reason: `body.${field}.${index}: unknown id ${wanted[index]}` }))
      }

      const resolve = Effect.fn("Policies.resolve")(function*(
        owner: SuiAddress,
        ids: { policyIds: ReadonlyArray<PolicyId>; profileIds: ReadonlyArray<ProfileId> }
      ) {
        const profiles = yield* repo.findProfiles(owner, ids.profileIds)
        yield* unknownIds("profileIds", ids.profileIds, profiles)
        const byId = new Map(profiles.map((p) => [p.id, p]))
        const all = [...new Set([...ids.policyIds, ...ids.profileIds.flatMap((id) => byId.get(id)?.policyIds ?? [])])]
        const policies = yield* repo.findPolicies(owner, all)
        yield* unknownIds("policyIds", ids.policyIds, policies)
        const ordered = [...policies].sort((a, b) => a.onChainPolicyId - b.onChainPolicyId)
        return {
          policyIds: ordered.map((p) => p.id),
          onChainPolicyIds: ordered.map((p) => p.onChainPolicyId),
          rules: ordered.map((p) => p.rule)
        }
      })

      return Policies.of({
        createPolicy: Effect.fn("Policies.createPolicy")(function*(owner, input) {
          return yield* repo.insertPolicy({ id: PolicyIdSchema.make(newId("pol")), owner, ...input, createdAt: yield* now })
        }),
        listPolicies: repo.listPolicies,
        createProfile: Effect.fn("Policies.createProfile")(function*(owner, input) {
          const found = yield* repo.findPolicies(owner, input.policyIds)
          yield* unknownIds("policyIds", input.policyIds, found)
          return yield* repo.insertProfile({
            id: ProfileIdSchema.make(newId("prof")),
            owner,
            name: input.name,
            policyIds: [...new Set(input.policyIds)],
            createdAt: yield* now
          })
        }),
        listProfiles: repo.listProfiles,
        resolve
      })
    })
  )
}
