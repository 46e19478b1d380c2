import { Effect } from "effect"
import { Structs } from "@gateway/domain/chain/SpendAccountModule"
import { TestLedger } from "../../../server/test/support/TestLedger.ts"

/** What the grant's pool holds now, in MIST. */
export const poolBalance = (poolId: string) =>
  Effect.flatMap(TestLedger, (ledger) => Effect.map(ledger.contents(poolId), (bytes) => BigInt(Structs.Pool.parse(bytes).balance.value)))
