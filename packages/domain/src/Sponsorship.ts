import { Schema } from "effect"
import { described, documented, Example } from "./Doc.ts"
import { SuiAddress } from "./SuiAddress.ts"

const Base64 = Schema.String.pipe(
  Schema.check(Schema.isMaxLength(16_384), Schema.isPattern(/^[A-Za-z0-9+/]+={0,2}$/u, { expected: "base64" }))
)

/** A prepared kind (create grant, revoke, pause, resume, fund or withdraw) the owner asks the platform to pay gas for. */
export const SponsorRequest = Schema.Struct({
  txKindBytes: documented(
    Base64,
    "The TransactionKind (base64 BCS, no gas) a prepare endpoint answered as txKindBytes, e.g. a grant's create, revoke, pause or resume, or a spend account deposit.",
    Example.base64
  )
})

/**
 * The whole transaction for the owner's wallet to sign: the owner sends it,
 * the sponsor pays its gas. The sponsor co-signs exactly these bytes, once,
 * until `expiresAt`.
 */
export const SponsoredTransaction = Schema.Struct({
  txBytes: documented(
    Base64,
    "The whole transaction (base64 BCS TransactionData): your kind, you as sender, the sponsor's gas. Sign exactly these bytes in your wallet.",
    Example.base64
  ),
  sender: described(SuiAddress, "Who must sign txBytes: you, the signed-in owner."),
  sponsor: described(SuiAddress, "The platform's sponsor address, owner of the gas coin; it co-signs at execute."),
  gasBudget: documented(Schema.String, "The most gas the sponsor pays for it, in MIST (1 SUI = 10^9 MIST) as a decimal string.", "5000000"),
  /** When the sponsor stops holding this transaction's gas coin and no longer co-signs it (ISO 8601). */
  expiresAt: documented(
    Schema.String,
    "Execute before this time (ISO 8601): then the sponsor releases the gas coin and no longer co-signs these bytes.",
    Example.isoTime
  )
})
export type SponsoredTransaction = typeof SponsoredTransaction.Type

export const ExecuteSponsored = Schema.Struct({
  /** Exactly the bytes POST /v1/sponsored-transactions returned. */
  txBytes: documented(Base64, "Exactly the txBytes POST /v1/sponsored-transactions answered, unchanged.", Example.base64),
  /** The owner's signature over txBytes, as the wallet returns it (base64). */
  signature: documented(
    Base64,
    "Your signature over txBytes as the wallet returns it (base64: flag, signature and public key).",
    Example.walletSignature
  )
})

export const SponsoredExecution = Schema.Struct({
  digest: documented(Schema.String, "The executed transaction's digest (base58): finalize with it as usual.", Example.digest),
  status: documented(Schema.Literals(["success", "failure"]), "Whether the chain executed it successfully; a failed transaction still used gas.", "success"),
  /** Why the chain failed it; null on success. */
  error: documented(Schema.NullOr(Schema.String), "Why the chain failed it, as the chain says; null on success.", null)
})
export type SponsoredExecution = typeof SponsoredExecution.Type
