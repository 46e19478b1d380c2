import { normalizeCoinType, SUI_COIN_TYPE } from "@gateway/domain/chain/SpendAccountModule"
import { Effect } from "effect"
import { LocalLedger } from "./LocalLedger.ts"

/** The in-process ledger as a wallet sees it: its SUI coins for gas, and a place to submit. */
export const localLedgerAccess = LocalLedger.useSync((ledger) => ({
  referenceGasPrice: ledger.config.referenceGasPrice,
  gasCoins: (owner: string) =>
    Effect.map(ledger.ownedObjects(owner), (objects) =>
      objects.flatMap((o) =>
        o.data._tag === "Coin" && o.data.coinType === normalizeCoinType(SUI_COIN_TYPE)
          ? [{ objectId: o.id, version: o.version.toString(), digest: o.digest, balance: o.data.balance }]
          : []
      )),
  submit: (txBytes: string, signatures: ReadonlyArray<string>) => ledger.executeSigned(txBytes, signatures)
}))
