import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import * as fc from "fast-check"
import { normalizeCoinType, SUI_COIN_TYPE } from "../chain/SpendAccountModule.ts"
import { CoinType } from "../CoinType.ts"
import { ServiceId } from "../Ids.ts"
import { policyAllows, type PolicyRule } from "../Policy.ts"
import { SuiAddress } from "../SuiAddress.ts"
import {
  type AskedCall,
  type ChainPayment,
  type ChallengeClaims,
  decidePaidCall,
  FAIL_REFUSALS,
  type GatheredFacts,
  PAID_CALL_REFUSALS,
  type PaidCallDecision,
  type PaidCallFacts,
  type PaidCallNeed,
  type PaidCallRefusal,
  RECHALLENGE_REFUSALS
} from "./PaidCallDecision.ts"
import type { PayingGrant } from "./PayingGrant.ts"
import { type PaidAnswer, PaymentRefusal, PaymentStatus, type RecordedPayment } from "./RecordedPayment.ts"

const SERVICE = `svc_${"1".repeat(26)}`
const OTHER_SERVICE = `svc_${"2".repeat(26)}`
const PAY_TO = `0x${"b".repeat(64)}`
const DELEGATE = `0x${"d".repeat(64)}`
const STRANGER = `0x${"e".repeat(64)}`
const USDC = `0x${"a".repeat(64)}::usdc::USDC`
const NONCE = "the-presented-nonce"
const DIGEST = "the-presented-digest"
const EXPIRES_AT = 2_000
const NOW = 10_000
const RETENTION = 5_000

const CHALLENGE: ChallengeClaims = { serviceId: SERVICE, revision: 3, expiresAtMs: EXPIRES_AT }
const ASKED: AskedCall = { serviceId: SERVICE, name: "Answers", method: "GET", path: "/x", price: 40n, payTo: PAY_TO, asset: "0x2::sui::SUI" }
const PAID: ChainPayment = { delegate: DELEGATE, grantObjectId: "0xgrantobject", poolId: "0xpool", amount: 40n, paidAtMs: 1_000 }
/** Its coin type written otherwise than the asked asset, as the same coin. */
const GRANT: PayingGrant = { id: "g_1", poolId: "0xpool", coinType: normalizeCoinType(SUI_COIN_TYPE), policyRules: [] }
const ANSWER: PaidAnswer = { status: 200, contentType: "application/json", body: new Uint8Array([42]), answeredAt: new Date(NOW - RETENTION) }

const rule = (overrides: Partial<PolicyRule> = {}): PolicyRule => ({ serviceIds: [], methods: [], paths: [], recipients: [], assets: [], ...overrides })
const grantWith = (overrides: Partial<PayingGrant>) => Option.some({ ...GRANT, ...overrides })
const onlyRule = (overrides: Partial<PolicyRule>) => grantWith({ policyRules: [rule(overrides)] })

const recorded = (overrides: Partial<RecordedPayment> = {}): Option.Option<RecordedPayment> =>
  Option.some({ digest: DIGEST, nonce: NONCE, payer: DELEGATE, amount: "40", status: "forwarded", refusal: null, answer: Option.some(ANSWER), ...overrides })
const refused = (refusal: PaymentRefusal | null) => recorded({ status: "refused", refusal, answer: Option.none() })

/** What the service finds when it gathers each fact. */
interface World {
  readonly challenge: ChallengeClaims | undefined
  readonly recorded: Option.Option<RecordedPayment>
  readonly paid: ChainPayment
  /** Whose signature the credential's proof is. */
  readonly prover: string
  readonly grant: Option.Option<PayingGrant>
  /** Whether this request gets hold of the payment: no other request recorded it first or holds it. */
  readonly free: boolean
  readonly nowMs: number
}

const WORLD: World = { challenge: CHALLENGE, recorded: Option.none(), paid: PAID, prover: DELEGATE, grant: Option.some(GRANT), free: true, nowMs: NOW }

const find = (world: World, need: PaidCallNeed): GatheredFacts => {
  switch (need._tag) {
    case "AskedCall":
      return { asked: ASKED }
    case "RecordedPayment":
      return { recorded: world.recorded }
    case "ChainPayment":
      return { paid: world.paid }
    case "Possession":
      return { proven: need.payer === world.prover }
    case "PayingGrant":
      return { grant: world.grant }
    case "Claim":
    case "Reclaim":
      return { held: world.free }
  }
}

type Final = Exclude<PaidCallDecision, { readonly _tag: "Gather" }>

/** Decides as the service does, gathering each fact asked for from the world: the final decision, and the needs in the order asked. */
const run = (overrides: Partial<World> = {}): { readonly decision: Final; readonly needs: ReadonlyArray<PaidCallNeed> } => {
  const world = { ...WORLD, ...overrides }
  const needs: Array<PaidCallNeed> = []
  let facts: PaidCallFacts = { serviceId: SERVICE, nonce: NONCE, digest: DIGEST, challenge: world.challenge, nowMs: world.nowMs, answerRetentionMs: RETENTION }
  let decision = decidePaidCall(facts)
  while (decision._tag === "Gather") {
    // Each fact is asked for once: a decision asking again would never end.
    assert.notInclude(needs.map((n) => n._tag), decision.need._tag)
    needs.push(decision.need)
    facts = { ...facts, ...find(world, decision.need) }
    decision = decidePaidCall(facts)
  }
  return { decision, needs }
}

const tagsOf = (needs: ReadonlyArray<PaidCallNeed>) => needs.map((n) => n._tag)

/** How the route answers a refusal: its code and reason (a fresh challenge is PAYMENT_REQUIRED). */
const answerOf = (decision: Final): readonly [string, string] | undefined =>
  decision._tag === "Rechallenge"
    ? ["PAYMENT_REQUIRED", decision.refusal]
    : decision._tag === "Fail"
    ? [decision.error.code, decision.error.reason]
    : undefined

const refusalOf = (decision: Final): PaidCallRefusal | undefined =>
  decision._tag === "Rechallenge" || decision._tag === "Fail" ? decision.refusal : undefined

const recordOf = (decision: Final) => (decision._tag === "Rechallenge" || decision._tag === "Fail" ? decision.record : undefined)

interface Case {
  readonly when: string
  readonly world: Partial<World>
  /** The code and reason the route answers with. */
  readonly answer: readonly [code: string, reason: string]
  /** Recorded before the answer: the payment as refused for this reason; undefined when nothing is written. */
  readonly records: PaymentRefusal | undefined
}

const policyCase = (when: string, only: Partial<PolicyRule>): Case => ({
  when,
  world: { grant: onlyRule(only) },
  answer: ["UNVERIFIED", "policy: service not allowed"],
  records: "policy"
})

/**
 * Every refusal the decision can answer a presented payment with, and the facts that bring each about. Keyed by
 * refusal, so a refusal added to the decision does not compile until it is named here with a case.
 */
/** A digest recorded as a sign-first payment's, presented as an upfront payment. */
const signFirstCase = (status: PaymentStatus): Case => ({
  when: `the digest is a sign-first payment's (${status})`,
  world: { recorded: recorded({ status }) },
  answer: ["CONFLICT", "sign_first_payment"],
  records: undefined
})

const REFUSALS: { readonly [R in PaidCallRefusal]: readonly [Case, ...Array<Case>] } = {
  unknown_challenge: [
    { when: "the nonce is not one this gateway minted", world: { challenge: undefined }, answer: ["PAYMENT_REQUIRED", "unknown_challenge"], records: undefined },
    {
      when: "the challenge is another service's",
      world: { challenge: { ...CHALLENGE, serviceId: OTHER_SERVICE } },
      answer: ["PAYMENT_REQUIRED", "unknown_challenge"],
      records: undefined
    }
  ],
  payment_for_another_challenge: [{
    when: "a recorded payment comes with a challenge it did not pay",
    world: { recorded: recorded({ nonce: "another-nonce" }) },
    answer: ["PAYMENT_REQUIRED", "payment_for_another_challenge"],
    records: undefined
  }],
  payment_proof_invalid: [
    { when: "a new payment's proof is not its delegate's", world: { prover: STRANGER }, answer: ["PAYMENT_REQUIRED", "payment_proof_invalid"], records: undefined },
    {
      when: "a recorded payment's proof is not its payer's",
      world: { recorded: recorded(), prover: STRANGER },
      answer: ["PAYMENT_REQUIRED", "payment_proof_invalid"],
      records: undefined
    }
  ],
  challenge_expired: [{
    when: "the chain accepted the payment a millisecond after the challenge expired",
    world: { paid: { ...PAID, paidAtMs: EXPIRES_AT + 1 } },
    answer: ["PAYMENT_REQUIRED", "challenge_expired"],
    records: "challenge_expired"
  }],
  payment_refused_challenge_expired: [{
    when: "a payment recorded as late is presented again",
    world: { recorded: refused("challenge_expired") },
    answer: ["PAYMENT_REQUIRED", "payment_refused_challenge_expired"],
    records: undefined
  }],
  payment_refused_unknown_grant: [{
    when: "a payment recorded from a foreign grant is presented again",
    world: { recorded: refused("unknown_grant") },
    answer: ["PAYMENT_REQUIRED", "payment_refused_unknown_grant"],
    records: undefined
  }],
  payment_refused_wrong_asset: [{
    when: "a payment recorded in the wrong asset is presented again",
    world: { recorded: refused("wrong_asset") },
    answer: ["PAYMENT_REQUIRED", "payment_refused_wrong_asset"],
    records: undefined
  }],
  payment_refused_policy: [{
    when: "a payment recorded against the owner's policy is presented again",
    world: { recorded: refused("policy") },
    answer: ["PAYMENT_REQUIRED", "payment_refused_policy"],
    records: undefined
  }],
  payment_refused_earlier: [{
    when: "a payment recorded as refused without its reason is presented again",
    world: { recorded: refused(null) },
    answer: ["PAYMENT_REQUIRED", "payment_refused_earlier"],
    records: undefined
  }],
  paid_answer_expired: [
    {
      when: "the kept answer is a millisecond past the retention window",
      world: { recorded: recorded(), nowMs: NOW + 1 },
      answer: ["CONFLICT", "paid_answer_expired"],
      records: undefined
    },
    {
      when: "the kept answer was swept",
      world: { recorded: recorded({ answer: Option.none() }) },
      answer: ["CONFLICT", "paid_answer_expired"],
      records: undefined
    }
  ],
  payment_in_flight: [
    { when: "another request recorded the new payment first", world: { free: false }, answer: ["CONFLICT", "payment_in_flight"], records: undefined },
    {
      when: "another request is forwarding the recorded payment",
      world: { recorded: recorded({ status: "forwarding", answer: Option.none() }), free: false },
      answer: ["CONFLICT", "payment_in_flight"],
      records: undefined
    },
    {
      when: "another request took the failed payment back first",
      world: { recorded: recorded({ status: "upstream_failed", answer: Option.none() }), free: false },
      answer: ["CONFLICT", "payment_in_flight"],
      records: undefined
    }
  ],
  sign_first_payment: [
    signFirstCase("settling"),
    signFirstCase("settled"),
    signFirstCase("not_charged"),
    signFirstCase("settlement_failed")
  ],
  chain_gave_no_timestamp: [{
    when: "the chain gave no time for the payment",
    world: { paid: { ...PAID, paidAtMs: 0 } },
    answer: ["UNAVAILABLE", "chain_gave_no_timestamp"],
    records: undefined
  }],
  unknown_grant: [
    {
      when: "the grant is not one this gateway provisioned",
      world: { grant: Option.none() },
      answer: ["UNVERIFIED", "grant: unknown to this gateway"],
      records: "unknown_grant"
    },
    {
      when: "the grant paid from a pool not its own",
      world: { paid: { ...PAID, poolId: "0xanotherpool" } },
      answer: ["UNVERIFIED", "grant: unknown to this gateway"],
      records: "unknown_grant"
    }
  ],
  wrong_asset: [{
    when: "the grant holds a cheaper coin than the asked one",
    world: { grant: grantWith({ coinType: USDC }) },
    answer: ["UNVERIFIED", "asset: expected 0x2::sui::SUI"],
    records: "wrong_asset"
  }],
  policy: [
    policyCase("no rule allows the service", { serviceIds: [ServiceId.make(OTHER_SERVICE)] }),
    policyCase("no rule allows the method", { methods: ["POST"] }),
    policyCase("no rule allows the path", { paths: ["/y"] }),
    policyCase("no rule allows the recipient", { recipients: [SuiAddress.make(STRANGER)] }),
    policyCase("no rule allows the asset", { assets: [CoinType.make(USDC)] })
  ]
}

describe("decidePaidCall refuses", () => {
  it("for exactly the refusals the table names, each answered as a fresh challenge or an error", () => {
    assert.deepStrictEqual(Object.keys(REFUSALS).sort(), [...PAID_CALL_REFUSALS].sort())
    assert.strictEqual(new Set(PAID_CALL_REFUSALS).size, RECHALLENGE_REFUSALS.length + FAIL_REFUSALS.length)
  })

  for (const refusal of PAID_CALL_REFUSALS) {
    for (const c of REFUSALS[refusal]) {
      it(`${refusal}: ${c.when}`, () => {
        const { decision } = run(c.world)
        assert.strictEqual(refusalOf(decision), refusal)
        assert.deepStrictEqual(answerOf(decision), c.answer)
        assert.strictEqual(recordOf(decision)?.refusal, c.records)
      })
    }
  }
})

describe("decidePaidCall serves", () => {
  it("a new payment once this request recorded it, recording the challenge's terms and the grant as they are", () => {
    const { decision, needs } = run()
    assert.deepStrictEqual(needs, [
      { _tag: "AskedCall", serviceId: SERVICE, revision: 3 },
      { _tag: "RecordedPayment" },
      { _tag: "ChainPayment", amount: 40n, recipient: PAY_TO, nonce: NONCE, challengeExpiresAtMs: EXPIRES_AT },
      { _tag: "Possession", payer: DELEGATE },
      { _tag: "PayingGrant", grantObjectId: "0xgrantobject" },
      {
        _tag: "Claim",
        claim: {
          digest: DIGEST,
          nonce: NONCE,
          serviceId: SERVICE,
          revision: 3,
          serviceName: "Answers",
          asset: normalizeCoinType(SUI_COIN_TYPE),
          recipient: PAY_TO,
          grantObjectId: "0xgrantobject",
          grantId: "g_1",
          payer: DELEGATE,
          amount: "40",
          refusal: null
        }
      }
    ])
    assert.deepStrictEqual(decision, { _tag: "Forward", paid: { payer: DELEGATE, amount: "40" } })
  })

  it("a payment the chain accepted at the very expiry of its challenge", () => {
    assert.strictEqual(run({ paid: { ...PAID, paidAtMs: EXPIRES_AT } }).decision._tag, "Forward")
  })

  it("a call some rule of the owner's policy allows, assets compared normalized", () => {
    const long = CoinType.make(normalizeCoinType("0x2::sui::SUI"))
    assert.strictEqual(run({ grant: onlyRule({ serviceIds: [ServiceId.make(SERVICE)] }) }).decision._tag, "Forward")
    assert.strictEqual(run({ grant: onlyRule({ assets: [long] }) }).decision._tag, "Forward")
    assert.strictEqual(run({ grant: grantWith({ policyRules: [rule({ paths: ["/y"] }), rule({ paths: ["/x"] })] }) }).decision._tag, "Forward")
  })

  it("a recorded payment whose forward failed or whose request died, again, once this request takes it back", () => {
    for (const status of ["upstream_failed", "forwarding"] as const) {
      const { decision, needs } = run({ recorded: recorded({ status, payer: STRANGER, amount: "41", answer: Option.none() }), prover: STRANGER })
      assert.deepStrictEqual(tagsOf(needs), ["AskedCall", "RecordedPayment", "Possession", "Reclaim"])
      assert.deepStrictEqual(decision, { _tag: "Forward", paid: { payer: STRANGER, amount: "41" } })
    }
  })

  it("a recorded payment's kept answer again, to the end of the retention window, however late, without the chain", () => {
    const { decision, needs } = run({ recorded: recorded(), paid: { ...PAID, paidAtMs: EXPIRES_AT + 1 } })
    assert.deepStrictEqual(tagsOf(needs), ["AskedCall", "RecordedPayment", "Possession"])
    assert.deepStrictEqual(decision, { _tag: "AnswerKept", answer: ANSWER, paid: { payer: DELEGATE, amount: "40" } })
  })
})

describe("decidePaidCall gathers nothing more than it needs", () => {
  it("no read for a nonce this gateway did not mint for this service", () => {
    assert.deepStrictEqual(run({ challenge: undefined }).needs, [])
    assert.deepStrictEqual(run({ challenge: { ...CHALLENGE, serviceId: OTHER_SERVICE } }).needs, [])
  })

  it("no signature check for a payment presented with another challenge", () => {
    assert.deepStrictEqual(tagsOf(run({ recorded: recorded({ nonce: "another-nonce" }) }).needs), ["AskedCall", "RecordedPayment"])
  })

  it("no grant read and no write for a proof that does not hold", () => {
    assert.deepStrictEqual(tagsOf(run({ prover: STRANGER }).needs), ["AskedCall", "RecordedPayment", "ChainPayment", "Possession"])
    assert.deepStrictEqual(tagsOf(run({ recorded: recorded({ status: "upstream_failed" }), prover: STRANGER }).needs), [
      "AskedCall",
      "RecordedPayment",
      "Possession"
    ])
  })

  it("a refused payment is recorded with what its listings show: the asked asset and no grant id for a foreign grant", () => {
    const record = recordOf(run({ grant: Option.none() }).decision)
    assert.deepInclude(record, { asset: ASKED.asset, grantId: null, grantObjectId: "0xgrantobject", payer: DELEGATE, refusal: "unknown_grant" })
  })
})

/** Every combination of the facts that matter, each at the values either side of its gate. */
const everyWorld = (): ReadonlyArray<Partial<World>> => {
  const challenges = [CHALLENGE, { ...CHALLENGE, serviceId: OTHER_SERVICE }, undefined]
  const recordeds = [
    Option.none(),
    ...(["forwarding", "forwarded", "upstream_failed", "settled", "not_charged"] as const).flatMap((status) =>
      [NONCE, "another-nonce"].flatMap((nonce) => [Option.some(ANSWER), Option.none()].map((answer) => recorded({ status, nonce, answer })))
    ),
    ...[null, ...PaymentRefusal.literals].flatMap((refusal) => [NONCE, "another-nonce"].map((nonce) => recorded({ status: "refused", refusal, nonce })))
  ]
  const paids = [0, PAID.paidAtMs, EXPIRES_AT, EXPIRES_AT + 1].flatMap((paidAtMs) =>
    [PAID.poolId, "0xanotherpool"].map((poolId) => ({ ...PAID, paidAtMs, poolId }))
  )
  const grants = [Option.none(), Option.some(GRANT), grantWith({ coinType: USDC }), onlyRule({ paths: ["/y"] })]
  return challenges.flatMap((challenge) =>
    recordeds.flatMap((r) =>
      paids.flatMap((paid) =>
        [DELEGATE, STRANGER].flatMap((prover) =>
          grants.flatMap((grant) =>
            [true, false].flatMap((free) => [NOW, NOW + 1].map((nowMs) => ({ challenge, recorded: r, paid, prover, grant, free, nowMs })))
          )
        )
      )
    )
  )
}

describe("decidePaidCall over every combination of facts", () => {
  it("answers every refusal of the table, and no other", () => {
    const answered = new Set(everyWorld().flatMap((world) => {
      const refusal = refusalOf(run(world).decision)
      return refusal === undefined ? [] : [refusal]
    }))
    assert.deepStrictEqual([...answered].sort(), [...PAID_CALL_REFUSALS].sort())
  })
})

const worlds: fc.Arbitrary<World> = fc.record({
  challenge: fc.constantFrom(CHALLENGE, { ...CHALLENGE, serviceId: OTHER_SERVICE }, undefined),
  recorded: fc.option(
    fc.record({
      digest: fc.constant(DIGEST),
      nonce: fc.constantFrom(NONCE, "another-nonce"),
      payer: fc.constantFrom(DELEGATE, STRANGER),
      amount: fc.constant("40"),
      status: fc.constantFrom(...PaymentStatus.literals),
      refusal: fc.constantFrom(null, ...PaymentRefusal.literals),
      answer: fc.option(fc.integer({ min: 0, max: 2 * NOW }).map((ms): PaidAnswer => ({ ...ANSWER, answeredAt: new Date(ms) })), { nil: undefined })
        .map((a) => Option.fromUndefinedOr(a))
    }),
    { nil: undefined }
  ).map((r) => Option.fromUndefinedOr(r)),
  paid: fc.record({
    delegate: fc.constantFrom(DELEGATE, STRANGER),
    grantObjectId: fc.constant(PAID.grantObjectId),
    poolId: fc.constantFrom(PAID.poolId, "0xanotherpool"),
    amount: fc.constant(40n),
    paidAtMs: fc.integer({ min: -1, max: 2 * EXPIRES_AT })
  }),
  prover: fc.constantFrom(DELEGATE, STRANGER),
  grant: fc.constantFrom(Option.none(), Option.some(GRANT), grantWith({ coinType: USDC }), onlyRule({ paths: ["/y"] }), onlyRule({ paths: ["/x"] })),
  free: fc.boolean(),
  nowMs: fc.integer({ min: 0, max: 2 * NOW })
})

describe("decidePaidCall, for any facts", () => {
  it("serves a call only when every gate holds", () => {
    fc.assert(fc.property(worlds, (world) => {
      const { decision } = run(world)
      if (decision._tag !== "Forward" && decision._tag !== "AnswerKept") return
      assert.deepStrictEqual(world.challenge, CHALLENGE, "a challenge this gateway minted for this service")
      const stored = Option.getOrUndefined(world.recorded)
      if (stored !== undefined) {
        assert.strictEqual(stored.nonce, NONCE, "the challenge the payment paid")
        assert.strictEqual(world.prover, stored.payer, "its payer's proof")
        if (decision._tag === "AnswerKept") {
          assert.strictEqual(stored.status, "forwarded")
          assert.isAtMost(world.nowMs - decision.answer.answeredAt.getTime(), RETENTION)
        } else {
          assert.include(["forwarding", "upstream_failed"], stored.status)
          assert.isTrue(world.free, "held by this request")
        }
        return
      }
      const grant = Option.getOrUndefined(world.grant)
      assert.strictEqual(decision._tag, "Forward")
      assert.strictEqual(world.prover, world.paid.delegate, "its delegate's proof")
      assert.isTrue(world.paid.paidAtMs > 0 && world.paid.paidAtMs <= EXPIRES_AT, "paid in time")
      assert.strictEqual(grant?.poolId, world.paid.poolId, "from a grant of this gateway, out of its own pool")
      assert.strictEqual(normalizeCoinType(grant?.coinType ?? ""), normalizeCoinType(ASKED.asset), "in the asked asset")
      const call = { serviceId: SERVICE, method: ASKED.method, path: ASKED.path, recipient: PAY_TO, asset: ASKED.asset }
      assert.isTrue(policyAllows(grant?.policyRules ?? [], call, normalizeCoinType), "within the owner's policy")
      assert.isTrue(world.free, "recorded by this request")
    }))
  })

  it("writes nothing before the payer's proof holds, and records only a new payment it refuses, for the reason it answers", () => {
    fc.assert(fc.property(worlds, (world) => {
      const { decision, needs } = run(world)
      const payer = Option.match(world.recorded, { onNone: () => world.paid.delegate, onSome: (r) => r.payer })
      const record = recordOf(decision)
      if (world.prover !== payer) {
        assert.notInclude(tagsOf(needs), "Claim")
        assert.notInclude(tagsOf(needs), "Reclaim")
        assert.isUndefined(record)
      }
      if (record === undefined) return
      assert.isTrue(Option.isNone(world.recorded), "a payment already recorded is not recorded again")
      assert.strictEqual(record.refusal, refusalOf(decision))
    }))
  })

  it("serves a new payment the chain accepted by its challenge's expiry, and records a later one as late", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 ** 13 }), fc.integer({ min: 1, max: 10 ** 13 }), (paidAtMs, expiresAtMs) => {
      const { decision } = run({ challenge: { ...CHALLENGE, expiresAtMs }, paid: { ...PAID, paidAtMs } })
      if (paidAtMs <= expiresAtMs) return assert.strictEqual(decision._tag, "Forward")
      assert.strictEqual(refusalOf(decision), "challenge_expired")
      assert.strictEqual(recordOf(decision)?.refusal, "challenge_expired")
    }))
  })

  it("gives a kept answer again exactly within the retention window", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10 ** 13 }), fc.integer({ min: 0, max: 10 ** 13 }), (answeredAtMs, nowMs) => {
      const { decision } = run({ recorded: recorded({ answer: Option.some({ ...ANSWER, answeredAt: new Date(answeredAtMs) }) }), nowMs })
      assert.strictEqual(decision._tag === "AnswerKept", nowMs - answeredAtMs <= RETENTION)
    }))
  })
})
