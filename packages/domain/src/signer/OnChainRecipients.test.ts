import { describe, expect, it } from "@effect/vitest"
import { MAX_RECIPIENTS } from "../chain/SpendAccountModule.ts"
import { CoinType } from "../CoinType.ts"
import type { PolicyRule } from "../Policy.ts"
import { SuiAddress } from "../SuiAddress.ts"
import { onChainRecipients } from "./OnChainRecipients.ts"

const addr = (n: number) => SuiAddress.make(`0x${n.toString(16).padStart(64, "0")}`)
const SUI = CoinType.make("0x2::sui::SUI")
const PADDED_SUI = CoinType.make(`0x${"0".repeat(63)}2::sui::SUI`)
const OTHER = CoinType.make(`0x${"a".repeat(64)}::coin::OTHER`)

const rule = (recipients: ReadonlyArray<number>, assets: ReadonlyArray<CoinType> = []): PolicyRule => ({
  serviceIds: [],
  methods: [],
  paths: [],
  recipients: recipients.map(addr),
  assets
})

describe("onChainRecipients", () => {
  it("lists nobody (any recipient) when no policy is attached", () => {
    expect(onChainRecipients([], SUI)).toEqual({ _tag: "Listed", recipients: [] })
  })

  it("is the union of the recipients of the rules that allow the asset, de-duplicated", () => {
    const rules = [rule([2, 1], [SUI]), rule([1, 3]), rule([9], [OTHER])]
    expect(onChainRecipients(rules, SUI)).toEqual({ _tag: "Listed", recipients: [addr(1), addr(2), addr(3)] })
    expect(onChainRecipients(rules, OTHER)).toEqual({ _tag: "Listed", recipients: [addr(1), addr(3), addr(9)] })
  })

  it("compares assets normalized", () => {
    expect(onChainRecipients([rule([1], [PADDED_SUI])], SUI)).toEqual({ _tag: "Listed", recipients: [addr(1)] })
  })

  it("is any when a rule allowing the asset leaves recipients open", () => {
    expect(onChainRecipients([rule([1], [SUI]), rule([], [SUI])], SUI)).toEqual({ _tag: "Listed", recipients: [] })
    // A rule open on recipients for another asset only leaves this asset's list alone.
    expect(onChainRecipients([rule([1], [SUI]), rule([], [OTHER])], SUI)).toEqual({ _tag: "Listed", recipients: [addr(1)] })
  })

  it("refuses when policies are attached and none allows the asset: an empty list would let a leaked key pay anyone on chain", () => {
    expect(onChainRecipients([rule([1], [OTHER])], SUI)).toEqual({ _tag: "AssetNotAllowed" })
    expect(onChainRecipients([rule([], [OTHER])], SUI)).toEqual({ _tag: "AssetNotAllowed" })
  })

  it("lists exactly MAX_RECIPIENTS, and refuses one more", () => {
    const sixteen = Array.from({ length: MAX_RECIPIENTS }, (_, i) => i + 1)
    expect(onChainRecipients([rule(sixteen)], SUI)).toMatchObject({ _tag: "Listed", recipients: { length: MAX_RECIPIENTS } })
    expect(onChainRecipients([rule(sixteen), rule([MAX_RECIPIENTS + 1])], SUI)).toEqual({ _tag: "TooMany", count: MAX_RECIPIENTS + 1 })
  })
})
