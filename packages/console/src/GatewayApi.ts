/// <reference lib="dom" />
import type { CatalogEntry, CatalogList, ManagedService, RegisterService } from "@gateway/domain/CatalogEntry"
import type { ConnectionManifest } from "@gateway/domain/ConnectionManifest"
import type {
  CreatedDelegatedSigner,
  CreateDelegatedSigner,
  DelegatedSignerEnvelope,
  DelegatedSignerList,
  FinalizeResult,
  PreparedChange
} from "@gateway/domain/DelegatedSigner"
import type { Health } from "@gateway/domain/api/System"
import type { PaymentList } from "@gateway/domain/PaymentHistory"
import type { ClaimRequested, PaymentSessionList } from "@gateway/domain/PaymentSessionView"
import type { Challenge, Revoked, Session } from "@gateway/domain/OwnerSession"
import type { Policy, Profile } from "@gateway/domain/Policy"
import type { PreparedSpendAccount, SpendAccountList } from "@gateway/domain/SpendAccount"
import type { ExecuteSponsored, SponsoredExecution, SponsoredTransaction } from "@gateway/domain/Sponsorship"
import { ApiFailure } from "./ApiFailure.ts"

/** What each finalize applies to: create, revoke, pause or resume of one grant. */
export type ChangeKind = "create" | "revoke" | "pause" | "resume"

const finalizePath = (kind: ChangeKind) => (kind === "create" ? "finalize" : `${kind}/finalize`)

type Json<S extends { readonly Encoded: unknown }> = S["Encoded"]

/** One page of payments, newest first. */
export type PaymentPage = Json<typeof PaymentList>

/** A signer's or a service's payment sessions, newest first. */
export type SessionPage = Json<typeof PaymentSessionList>

const pageQuery = (cursor: string | null) => `?limit=20${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`

/**
 * The gateway's HTTP API over `fetch`, typed by the domain's schemas (types
 * only: no schema code is bundled). Every non-2xx answer becomes an
 * ApiFailure carrying the spec's code.
 */
export class GatewayApi {
  #token: string | null = null
  #sessionEnded: () => void = () => undefined

  signedIn(): boolean {
    return this.#token !== null
  }

  useSession(token: string | null) {
    this.#token = token
  }

  /** Called when the gateway refuses the session (expired or revoked elsewhere): the page must sign in again. */
  onSessionEnded(listener: () => void) {
    this.#sessionEnded = listener
  }

  async #call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const init: RequestInit = {
      method,
      // The console shows the owner's current state: never an answer a cache kept (catalog reads carry max-age).
      cache: "no-store",
      headers: {
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(this.#token === null ? {} : { authorization: `Bearer ${this.#token}` }),
        ...headers
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    }
    let response: Response
    try {
      response = await fetch(path, init)
    } catch (cause) {
      throw new ApiFailure("NETWORK", cause instanceof Error ? cause.message : String(cause))
    }
    const text = await response.text()
    const parsed: unknown = text === "" ? null : safeJson(text)
    if (response.status === 401 && this.#token !== null) {
      this.#token = null
      this.#sessionEnded()
    }
    if (!response.ok) throw failureOf(response.status, parsed)
    // The gateway's answers are its HttpApi's encoded schemas; the page trusts its own origin's API rather than bundle the decoders.
    return parsed as T
  }

  health = () => this.#call<Json<typeof Health>>("GET", "/health")

  challenge = (address: string) => this.#call<Json<typeof Challenge>>("POST", "/v1/auth/challenge", { address })
  session = (message: string, signature: string) => this.#call<Json<typeof Session>>("POST", "/v1/auth/session", { message, signature })
  signOut = () => this.#call<Json<typeof Revoked>>("DELETE", "/v1/auth/session")

  spendAccounts = () => this.#call<Json<typeof SpendAccountList>>("GET", "/v1/spend-accounts")
  prepareSpendAccount = (asset: string, depositAtomic: string) =>
    this.#call<Json<typeof PreparedSpendAccount>>("POST", "/v1/spend-accounts/prepare", { asset, depositAtomic })

  sponsor = (txKindBytes: string) => this.#call<Json<typeof SponsoredTransaction>>("POST", "/v1/sponsored-transactions", { txKindBytes })
  executeSponsored = (txBytes: string, signature: string) =>
    this.#call<Json<typeof SponsoredExecution>>("POST", "/v1/sponsored-transactions/execute", { txBytes, signature } satisfies Json<typeof ExecuteSponsored>)

  policies = () => this.#call<{ readonly policies: ReadonlyArray<Json<typeof Policy>> }>("GET", "/v1/policies")
  profiles = () => this.#call<{ readonly profiles: ReadonlyArray<Json<typeof Profile>> }>("GET", "/v1/profiles")

  signers = (cursor: string | null) =>
    this.#call<Json<typeof DelegatedSignerList>>("GET", `/v1/delegated-signers${pageQuery(cursor)}`)
  signer = (id: string) => this.#call<Json<typeof DelegatedSignerEnvelope>>("GET", `/v1/delegated-signers/${id}`)
  createSigner = (payload: Json<typeof CreateDelegatedSigner>, idempotencyKey: string) =>
    this.#call<Json<typeof CreatedDelegatedSigner>>("POST", "/v1/delegated-signers", payload, { "idempotency-key": idempotencyKey })
  prepareChange = (kind: Exclude<ChangeKind, "create">, id: string) =>
    kind === "revoke"
      ? this.#call<Json<typeof PreparedChange>>("DELETE", `/v1/delegated-signers/${id}`)
      : this.#call<Json<typeof PreparedChange>>("POST", `/v1/delegated-signers/${id}/${kind}/prepare`)
  finalize = (kind: ChangeKind, id: string, grantId: string, digest: string) =>
    this.#call<Json<typeof FinalizeResult>>("POST", `/v1/delegated-signers/${id}/grants/${grantId}/${finalizePath(kind)}`, { digest })
  signerPayments = (id: string, cursor: string | null) => this.#call<PaymentPage>("GET", `/v1/delegated-signers/${id}/payments${pageQuery(cursor)}`)
  signerSessions = (id: string) => this.#call<SessionPage>("GET", `/v1/delegated-signers/${id}/sessions`)
  manifest = (id: string) => this.#call<Json<typeof ConnectionManifest>>("GET", `/v1/delegated-signers/${id}/manifest`)

  /** The public catalog: live services matching `q`, no session needed. */
  catalog = (q: string, cursor: string | null) =>
    this.#call<Json<typeof CatalogList>>("GET", `/v1/services?limit=20${q === "" ? "" : `&q=${encodeURIComponent(q)}`}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`)
  service = (id: string) => this.#call<Json<typeof CatalogEntry>>("GET", `/v1/services/${encodeURIComponent(id)}`)

  /** The signed-in seller's services, drafts included (the domain's MyServiceList, spelled here: the package exports no subpath for it). */
  myServices = () =>
    this.#call<{ readonly services: ReadonlyArray<Json<typeof ManagedService>>; readonly count: number }>("GET", "/v1/sellers/me/services")
  register = (payload: Json<typeof RegisterService>) => this.#call<Json<typeof ManagedService>>("POST", "/v1/register", payload)
  manage = (id: string) => this.#call<Json<typeof ManagedService>>("GET", `/v1/services/${id}/manage`)
  edit = (id: string, payload: Json<typeof RegisterService>) => this.#call<Json<typeof ManagedService>>("PUT", `/v1/services/${id}`, payload)
  servicePayments = (id: string, cursor: string | null) => this.#call<PaymentPage>("GET", `/v1/services/${id}/payments${pageQuery(cursor)}`)
  serviceSessions = (id: string) => this.#call<SessionPage>("GET", `/v1/services/${id}/sessions`)
  claimSessions = (id: string) => this.#call<Json<typeof ClaimRequested>>("POST", `/v1/services/${id}/sessions/claim`)
  activate = (id: string) => this.#call<Json<typeof ManagedService>>("POST", `/v1/services/${id}/activate`)
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const failureOf = (status: number, body: unknown): ApiFailure => {
  if (typeof body === "object" && body !== null && "code" in body && typeof body.code === "string") {
    const message = "message" in body && typeof body.message === "string" ? body.message : `HTTP ${status}`
    const reason = "reason" in body && typeof body.reason === "string" ? body.reason : undefined
    return new ApiFailure(body.code, message, reason)
  }
  return new ApiFailure(status >= 500 ? "UNAVAILABLE" : "INVALID", `HTTP ${status}`)
}
