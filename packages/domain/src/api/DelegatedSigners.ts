import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
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
import { OwnerAuth } from "./OwnerAuth.ts"

const signerParams = { id: DelegatedSignerId }
const grantParams = { id: DelegatedSignerId, grantId: GrantId }
const finalizeErrors = [NotFound, Conflict, NotFinal, TxFailed, ForeignDigest, Unverified] as const

const finalize = <Name extends string>(name: Name, path: `/${string}`) =>
  HttpApiEndpoint.post(name, path, {
    params: grantParams,
    payload: FinalizeRequest,
    success: FinalizeResult,
    error: finalizeErrors
  })

export class DelegatedSignersApi extends HttpApiGroup.make("delegatedSigners")
  .add(
    HttpApiEndpoint.post("create", "/", {
      headers: { "idempotency-key": Schema.optionalKey(IdempotencyKey) },
      payload: CreateDelegatedSigner,
      success: CreatedDelegatedSigner,
      error: [Invalid, Conflict, UnsupportedAsset]
    }),
    HttpApiEndpoint.get("list", "/", { query: ListQuery, success: DelegatedSignerList }),
    HttpApiEndpoint.get("get", "/:id", { params: signerParams, success: DelegatedSignerEnvelope, error: NotFound }),
    HttpApiEndpoint.get("manifest", "/:id/manifest", {
      params: signerParams,
      success: ConnectionManifest,
      error: [NotFound, Conflict]
    }),
    finalize("finalizeCreate", "/:id/grants/:grantId/finalize"),
    HttpApiEndpoint.delete("revoke", "/:id", {
      params: signerParams,
      success: PreparedChange,
      error: [NotFound, Conflict]
    }),
    finalize("finalizeRevoke", "/:id/grants/:grantId/revoke/finalize"),
    HttpApiEndpoint.post("preparePause", "/:id/pause/prepare", {
      params: signerParams,
      success: PreparedChange,
      error: [NotFound, Conflict]
    }),
    finalize("finalizePause", "/:id/grants/:grantId/pause/finalize"),
    HttpApiEndpoint.post("prepareResume", "/:id/resume/prepare", {
      params: signerParams,
      success: PreparedChange,
      error: [NotFound, Conflict]
    }),
    finalize("finalizeResume", "/:id/grants/:grantId/resume/finalize")
  )
  .middleware(OwnerAuth)
  .prefix("/v1/delegated-signers")
{}
