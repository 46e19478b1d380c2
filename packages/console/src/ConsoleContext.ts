import type { GatewayApi } from "./GatewayApi.ts"
import type { Notices } from "./Notices.ts"
import type { OwnerWallet } from "./OwnerWallet.ts"

/** What every panel works with: the API, the connected wallet and the page's notices. */
export interface ConsoleContext {
  readonly api: GatewayApi
  readonly wallet: OwnerWallet
  readonly notices: Notices
}
