/// <reference lib="dom" />
import { Transaction } from "@mysten/sui/transactions"
import { fromBase64 } from "@mysten/sui/utils"
import { ApiFailure, asFailure } from "./ApiFailure.ts"
import type { GatewayApi } from "./GatewayApi.ts"
import type { Kit } from "./Kit.ts"

/**
 * What the page asks of the connected wallet: sign the sign-in message and
 * sign and execute prepared kinds. The wallet holds the key; the page sees
 * only signatures and digests. An owner without SUI for gas signs a
 * transaction the platform sponsors instead: the gateway builds it around the
 * kind, the wallet signs it, the gateway co-signs and executes it.
 */
export class OwnerWallet {
  readonly kit: Kit
  readonly #api: GatewayApi

  constructor(kit: Kit, api: GatewayApi) {
    this.kit = kit
    this.#api = api
  }

  get client() {
    return this.kit.getClient()
  }

  address(): string | null {
    return this.kit.stores.$connection.get().account?.address ?? null
  }

  requireAddress(): string {
    const address = this.address()
    if (address === null) throw new ApiFailure("WALLET", "No wallet is connected: connect one first.")
    return address
  }

  async signMessage(text: string): Promise<string> {
    try {
      const { signature } = await this.kit.signPersonalMessage({ message: new TextEncoder().encode(text) })
      return signature
    } catch (cause) {
      throw asFailure(cause)
    }
  }

  /** Whether the platform pays gas: the owner holds no SUI at all. */
  async needsSponsor(): Promise<boolean> {
    const { balance } = await this.client.core.getBalance({ owner: this.requireAddress() })
    return BigInt(balance.balance) === 0n
  }

  /**
   * Has the wallet sign and execute a prepared kind with the owner as sender
   * (gas sponsored when the owner has no SUI), then waits until the node
   * serves it. A failed transaction has a digest too, which finalize reports.
   */
  async executeKind(txKindBytes: string, onSponsored: () => void = () => undefined): Promise<string> {
    const sponsored = await this.needsSponsor()
    if (sponsored) onSponsored()
    const digest = sponsored ? await this.#executeSponsored(txKindBytes) : await this.#executeOwn(txKindBytes)
    try {
      await this.client.core.waitForTransaction({ digest })
    } catch (cause) {
      throw asFailure(cause, "UNAVAILABLE")
    }
    return digest
  }

  async #executeOwn(txKindBytes: string): Promise<string> {
    const transaction = Transaction.fromKind(fromBase64(txKindBytes))
    transaction.setSender(this.requireAddress())
    try {
      const result = await this.kit.signAndExecuteTransaction({ transaction })
      return result.$kind === "Transaction" ? result.Transaction.digest : result.FailedTransaction.digest
    } catch (cause) {
      throw asFailure(cause)
    }
  }

  async #executeSponsored(txKindBytes: string): Promise<string> {
    const sponsored = await this.#api.sponsor(txKindBytes)
    let signed: { readonly bytes: string; readonly signature: string }
    try {
      signed = await this.kit.signTransaction({ transaction: sponsored.txBytes })
    } catch (cause) {
      throw asFailure(cause)
    }
    // The gateway executes only the bytes it sponsored; a wallet that changed them is refused there.
    const { digest } = await this.#api.executeSponsored(signed.bytes, signed.signature)
    return digest
  }
}
