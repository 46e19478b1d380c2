import type { Option } from "effect"
import type { SuiAddress } from "@gateway/domain/SuiAddress"

/** An authenticated caller: the owner, and the store key of the session it presented (none for an internal hop). */
export interface Caller {
  readonly address: SuiAddress
  readonly session: Option.Option<string>
}
