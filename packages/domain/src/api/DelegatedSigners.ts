import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ConnectionManifest } from "../ConnectionManifest.ts"
import {
  CreatedDelegatedSigner,
  CreateDelegatedSigner,
  DelegatedSignerEnvelope,
  DelegatedSignerList,
  FinalizeRequest,
  FinalizeResult,
  IdempotencyKey,
  ListQuery,
  PreparedChange
} from "../DelegatedSigner.ts"
import { described, documented } from "../Doc.ts"
import {
  Conflict,
  ForeignDigest,
  Invalid,
  NotFinal,
  NotFound,
  TxFailed,
  UnsupportedAsset,
  Unverified
} from "../Errors.ts"
import { DelegatedSignerId, GrantId } from "../Ids.ts"
import { PaymentSessionList } from "../PaymentSessionView.ts"
import { PaymentList, PaymentListQuery } from "../PaymentHistory.ts"
import { OwnerAuth } from "./OwnerAuth.ts"

const signerId = described(DelegatedSignerId, "The delegated signer's id (ds_…), as create answered.")
const signerParams = { id: signerId }
const grantParams = { id: signerId, grantId: described(GrantId, "The id of one of the signer's grants (g_…), as the create and prepare answers list it.") }
const finalizeErrors = [NotFound, Conflict, NotFinal, TxFailed, ForeignDigest, Unverified] as const

const finalize = <Name extends string>(name: Name, path: `/${string}`, change: string) =>
  HttpApiEndpoint.post(name, path, {
    params: grantParams,
    payload: FinalizeRequest,
    success: FinalizeResult,
    error: finalizeErrors
  }).annotateMerge(OpenApi.annotations({
    summary: `Finalize a grant's ${change}`,
    description:
      `Records the grant's ${change} from the digest of the transaction the owner signed and executed; the gateway reads the transaction from the chain and verifies it before anything changes. Retrying with the same digest answers alreadyFinalized. NOT_FINAL: the chain has not settled the transaction yet, retry shortly.`
  }))

export class DelegatedSignersApi extends HttpApiGroup.make("delegatedSigners")
  .add(
    HttpApiEndpoint.post("create", "/", {
      headers: {
        "idempotency-key": Schema.optionalKey(documented(
          IdempotencyKey,
          "Repeat a create with the same key to get the same signer back instead of a second one (or send idempotencyKey in the body); 1 to 200 characters.",
          "create-research-agent-1"
        ))
      },
      payload: CreateDelegatedSigner,
      success: CreatedDelegatedSigner,
      error: [Invalid, Conflict, UnsupportedAsset]
    }).annotateMerge(OpenApi.annotations({
      summary: "Create a delegated signer",
      description:
        "Plans one grant per asset scope for the agent's address and answers the transaction kind the owner signs for each; the signer is active once each grant is finalized. Needs an idempotency key (header or body); the same key with the same body replays the first answer. A scope's optional window (`{ limitAtomic, period: hour | day | week | calendar_month }` or `{ limitAtomic, periodMs }`, a minute to 366 days) caps what may be paid per period, between the per-payment cap and the total budget; the chain enforces it. The grant's on-chain recipient list is compiled from the attached policies (at most 16, else INVALID)."
    })),
    HttpApiEndpoint.get("list", "/", { query: ListQuery, success: DelegatedSignerList }).annotateMerge(OpenApi.annotations({
      summary: "List your delegated signers",
      description: "Your delegated signers, newest first, with each grant's status; pass nextCursor as cursor for the next page."
    })),
    HttpApiEndpoint.get("get", "/:id", { params: signerParams, success: DelegatedSignerEnvelope, error: NotFound }).annotateMerge(
      OpenApi.annotations({
        summary: "Read a delegated signer",
        description:
          "One of your delegated signers with its aggregate status and each grant's status, caps, expiry, window and recipients, and what the chain says was spent in the current window (`spentThisWindowAtomic`, `windowResetsAt`)."
      })
    ),
    HttpApiEndpoint.get("manifest", "/:id/manifest", {
      params: signerParams,
      success: ConnectionManifest,
      error: [NotFound, Conflict]
    }).annotateMerge(OpenApi.annotations({
      summary: "Read a signer's connection manifest",
      description:
        "What the agent needs to pay with this signer's live grants (package, grant and pool objects, caps, policy); it holds no key. CONFLICT while no grant is active."
    })),
    HttpApiEndpoint.get("sessions", "/:id/sessions", {
      params: signerParams,
      success: PaymentSessionList,
      error: NotFound
    }).annotateMerge(OpenApi.annotations({
      summary: "List a signer's payment sessions",
      description:
        "The sessions the agent opened with this signer's grants, newest first (at most 100): deposit (counted against the grant's budget while open), what the answered calls used, what the seller claimed, and what went back to the pool at the close."
    })),
    HttpApiEndpoint.get("payments", "/:id/payments", {
      params: signerParams,
      query: PaymentListQuery,
      success: PaymentList,
      error: [NotFound, Invalid]
    }).annotateMerge(OpenApi.annotations({
      summary: "List a signer's payments",
      description:
        "The payments the agent made with this signer's grants, newest first: service, amount, asset, recipient, digest, grant, time and outcome (forwarded, refused with its reason, in flight, upstream failed). limit is at most 100; pass nextCursor as cursor for the next page."
    })),
    finalize("finalizeCreate", "/:id/grants/:grantId/finalize", "creation"),
    HttpApiEndpoint.delete("revoke", "/:id", {
      params: signerParams,
      success: PreparedChange,
      error: [NotFound, Conflict]
    }).annotateMerge(OpenApi.annotations({
      summary: "Prepare revoking a delegated signer",
      description:
        "Answers one revoke transaction kind per live grant for the owner to sign and execute, then finalize; a revoked grant can never pay again."
    })),
    finalize("finalizeRevoke", "/:id/grants/:grantId/revoke/finalize", "revocation"),
    HttpApiEndpoint.post("preparePause", "/:id/pause/prepare", {
      params: signerParams,
      success: PreparedChange,
      error: [NotFound, Conflict]
    }).annotateMerge(OpenApi.annotations({
      summary: "Prepare pausing a delegated signer",
      description: "Answers one pause transaction kind per active grant for the owner to sign and execute, then finalize; a paused grant cannot pay until resumed."
    })),
    finalize("finalizePause", "/:id/grants/:grantId/pause/finalize", "pause"),
    HttpApiEndpoint.post("prepareResume", "/:id/resume/prepare", {
      params: signerParams,
      success: PreparedChange,
      error: [NotFound, Conflict]
    }).annotateMerge(OpenApi.annotations({
      summary: "Prepare resuming a delegated signer",
      description: "Answers one resume transaction kind per paused grant for the owner to sign and execute, then finalize."
    })),
    finalize("finalizeResume", "/:id/grants/:grantId/resume/finalize", "resumption")
  )
  .middleware(OwnerAuth)
  .prefix("/v1/delegated-signers")
{}
