import { randomBytes } from "node:crypto"
import { assert, describe, layer } from "@effect/vitest"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { Effect } from "effect"
import { type GatewayClient, makeApiClient, signIn, withOwner } from "@gateway/client"
import { CoinType } from "@gateway/domain/CoinType"
import { isApiError } from "@gateway/domain/Errors"
import { failsWith } from "../support/Assertions.ts"
import { gatewayFor } from "../support/PaidEnv.ts"
import { amount, liveService, SUI } from "../support/Scenario.ts"
import { TestLedger } from "../support/TestLedger.ts"
import { BaseUrl } from "../support/TestServer.ts"
import { type AsOwner, ownerWithout, poolFilled, signed, suiOf, withdrawKind } from "./SponsorKit.ts"

const USD = CoinType.make(`0x${randomBytes(32).toString("hex")}::usd::USD`)
const MINUTE_MS = 60_000

/** An owner with something at stake: a USD spend account funded with its own gas, signed in. */
const stakedOwner = (client: GatewayClient) =>
  Effect.gen(function*() {
    const ledger = yield* TestLedger
    const owner = new Ed25519Keypair()
    yield* ledger.fundPool(owner, USD, 1_000_000n)
    const asOwner = withOwner((yield* signIn(client, owner)).authorization)
    const pool = (yield* client.spendAccounts.list().pipe(asOwner)).spendAccounts.find((a) => a.coinType === USD)
    if (pool === undefined) return yield* Effect.die(new Error("no spend account"))
    return { owner, asOwner, pool: pool.pool }
  })

/** The kind that opens a USD spend account with `atomic` of the owner's own coin. */
const fundKind = (client: GatewayClient, asOwner: AsOwner, atomic = 500_000n) =>
  Effect.map(client.spendAccounts.prepare({ payload: { asset: USD, depositAtomic: amount(atomic) } }).pipe(asOwner), (k) => k.txKindBytes)

/** Builds, signs and executes a sponsored kind; the gateway's answer, or the refusal's code and reason. */
const attempt = (client: GatewayClient, owner: Ed25519Keypair, asOwner: AsOwner, txKindBytes: string) =>
  Effect.gen(function*() {
    const built = yield* client.sponsorship.sponsor({ payload: { txKindBytes } }).pipe(asOwner)
    const { signature } = yield* signed(owner, built.txBytes)
    return yield* client.sponsorship.execute({ payload: { txBytes: built.txBytes, signature } }).pipe(asOwner)
  }).pipe(
    Effect.map((executed) => ({ ok: true as const, status: executed.status })),
    Effect.catch((error) => isApiError(error) ? Effect.succeed({ ok: false as const, code: error.code, reason: error.reason }) : Effect.fail(error))
  )

describe("sponsorship budgets, counted in the store", () => {
  layer(
    gatewayFor([], { supportedAssets: [SUI, USD], sponsorPerOwnerPerMinute: 1000, sponsorNewcomerGasPerDay: 8_000_000, upstreamAllowHosts: ["127.0.0.1:9"] }),
    { excludeTestServices: true }
  )((it) => {
    it.effect("an address with nothing at stake gets only the newcomer allowance (429 with Retry-After); a live service or a funded spend account is stake", () =>
      Effect.gen(function*() {
        const baseUrl = yield* BaseUrl
        const client = yield* makeApiClient(baseUrl)
        const newcomer = yield* ownerWithout(client, USD)
        const kind = yield* fundKind(client, newcomer.asOwner)
        // One build (about 6.3M MIST of budget) fits the 8M allowance; a second, taken before the first is released, does not.
        yield* client.sponsorship.sponsor({ payload: { txKindBytes: kind } }).pipe(newcomer.asOwner)
        const limited = yield* failsWith(client.sponsorship.sponsor({ payload: { txKindBytes: kind } }).pipe(newcomer.asOwner), "RATE_LIMITED")
        assert.strictEqual(limited.reason, "sponsor_newcomer_budget")
        const raw = yield* Effect.promise(() =>
          fetch(`${baseUrl}/v1/sponsored-transactions`, {
            method: "POST",
            headers: { authorization: newcomer.authorization, "content-type": "application/json" },
            body: JSON.stringify({ txKindBytes: kind })
          })
        )
        assert.strictEqual(raw.status, 429)
        assert.isAbove(Number(raw.headers.get("retry-after")), 0)

        // A seller with a live service has something at stake: the same kind is sponsored.
        yield* liveService(client, { price: 40n, upstreamUrl: "http://127.0.0.1:9/answer", seller: newcomer.asOwner })
        const executed = yield* attempt(client, newcomer.owner, newcomer.asOwner, kind)
        assert.deepStrictEqual(executed, { ok: true, status: "success" })

        // So does an owner with a funded spend account.
        const staked = yield* stakedOwner(client)
        const withdraw = yield* attempt(client, staked.owner, staked.asOwner, yield* withdrawKind(staked.owner.toSuiAddress(), staked.pool, USD, 1n))
        assert.deepStrictEqual(withdraw, { ok: true, status: "success" })
      }))
  })

  layer(gatewayFor([], { supportedAssets: [SUI, USD], sponsorNewcomerGasPerDay: 3_000_000 }), { excludeTestServices: true })((it) => {
    it.effect("a call whose budget is more than the whole newcomer allowance is INVALID, not told to come back later", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const newcomer = yield* ownerWithout(client, USD)
        const refused = yield* failsWith(
          client.sponsorship.sponsor({ payload: { txKindBytes: yield* fundKind(client, newcomer.asOwner) } }).pipe(newcomer.asOwner),
          "INVALID"
        )
        assert.match(refused.reason, /^gas: this call's budget of \d+ MIST is more than the whole of its sponsorship budget \(sponsor_newcomer_budget\)$/)
      }))
  })

  layer(
    gatewayFor([], { supportedAssets: [SUI, USD], sponsorPerOwnerPerMinute: 1000, sponsorOwnerGasPerDay: 20_000_000 }),
    { excludeTestServices: true }
  )((it) => {
    it.effect("an owner's daily gas budget refuses with 429 once used; what a call did not spend is given back; another owner is not held back", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const { owner, asOwner, pool } = yield* stakedOwner(client)
        let sponsored = 0
        let refusal: { code: string; reason: string } | undefined
        for (let i = 0; i < 12 && refusal === undefined; i++) {
          const outcome = yield* attempt(client, owner, asOwner, yield* withdrawKind(owner.toSuiAddress(), pool, USD, 1n))
          if (outcome.ok) sponsored += 1
          else refusal = { code: outcome.code, reason: outcome.reason }
        }
        // Each build reserves about 6.3M MIST and spends about 2.3M: without the unspent part given back, three calls fit in 20M.
        assert.isAtLeast(sponsored, 4)
        assert.deepStrictEqual(refusal, { code: "RATE_LIMITED", reason: "sponsor_owner_budget" })

        const other = yield* stakedOwner(client)
        const withdraw = yield* attempt(client, other.owner, other.asOwner, yield* withdrawKind(other.owner.toSuiAddress(), other.pool, USD, 1n))
        assert.deepStrictEqual(withdraw, { ok: true, status: "success" })
      }))
  })

  layer(
    gatewayFor([], {
      supportedAssets: [SUI, USD],
      sponsorPerOwnerPerMinute: 1000,
      sponsorNewcomerGasPerMinute: 20_000_000,
      sponsorGasPerMinute: 1_000_000_000
    }),
    { excludeTestServices: true }
  )((it) => {
    it.effect("newcomers holding builds use up only the newcomers' share of the minute: an owner with stake is still sponsored", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        const reasons: Array<string> = []
        for (let i = 0; i < 4; i++) {
          const newcomer = yield* ownerWithout(client, USD)
          const built = yield* client.sponsorship.sponsor({ payload: { txKindBytes: yield* fundKind(client, newcomer.asOwner) } }).pipe(
            newcomer.asOwner,
            Effect.map(() => "built"),
            Effect.catch((error) => Effect.succeed(isApiError(error) ? error.reason : String(error)))
          )
          reasons.push(built)
        }
        assert.include(reasons, "sponsor_newcomers_busy")
        const staked = yield* stakedOwner(client)
        const withdraw = yield* attempt(client, staked.owner, staked.asOwner, yield* withdrawKind(staked.owner.toSuiAddress(), staked.pool, USD, 1n))
        assert.deepStrictEqual(withdraw, { ok: true, status: "success" })
      }))
  })

  const GAS_PER_MINUTE = 40_000_000
  layer(
    gatewayFor([], { supportedAssets: [SUI, USD], sponsorGasPerMinute: GAS_PER_MINUTE, sponsorNewcomerGasPerMinute: 20_000_000 }),
    { excludeTestServices: true, timeout: 120_000 }
  )((it) => {
    it.effect("a sybil run of 50 fresh owners leaves the sponsor's spend within the per-minute budget", () =>
      Effect.gen(function*() {
        const client = yield* makeApiClient(yield* BaseUrl)
        // The sponsor's address, from a build nobody executes.
        const probe = yield* stakedOwner(client)
        const { sponsor } = yield* client.sponsorship.sponsor({ payload: { txKindBytes: yield* withdrawKind(probe.owner.toSuiAddress(), probe.pool, USD, 1n) } }).pipe(
          probe.asOwner
        )
        // The pool's own split (after start, in the background) is the sponsor's maintenance, not sponsored gas.
        yield* poolFilled(sponsor)
        const before = yield* suiOf(sponsor)
        const startMs = Date.now()

        const outcomes = yield* Effect.forEach(Array.from({ length: 50 }, (_, i) => i), () =>
          Effect.gen(function*() {
            const sybil = yield* ownerWithout(client, USD)
            const tries = [yield* attempt(client, sybil.owner, sybil.asOwner, yield* fundKind(client, sybil.asOwner))]
            for (let i = 0; i < 4; i++) {
              const pools = (yield* client.spendAccounts.list().pipe(sybil.asOwner)).spendAccounts.find((a) => a.coinType === USD)
              if (pools === undefined) break
              tries.push(yield* attempt(client, sybil.owner, sybil.asOwner, yield* withdrawKind(sybil.owner.toSuiAddress(), pools.pool, USD, 1n)))
            }
            return tries
          }), { concurrency: 5 }).pipe(Effect.map((all) => all.flat()))

        const endMs = Date.now()
        const spent = before - (yield* suiOf(sponsor))
        const windows = Math.floor(endMs / MINUTE_MS) - Math.floor(startMs / MINUTE_MS) + 1
        const sponsored = outcomes.filter((o) => o.ok).length
        const refused = outcomes.flatMap((o) => (o.ok ? [] : [o.reason]))
        const byReason: Record<string, number> = {}
        for (const reason of refused) byReason[reason] = (byReason[reason] ?? 0) + 1
        console.log(
          `sybil run: ${outcomes.length} attempts, ${sponsored} sponsored, refused ${JSON.stringify(byReason)}; the sponsor spent ${spent} MIST in ${
            endMs - startMs
          } ms over ${windows} minute window(s), bound ${windows * GAS_PER_MINUTE}`
        )
        assert.isAbove(sponsored, 0)
        assert.isTrue(refused.some((r) => r === "sponsor_budget" || r === "sponsor_newcomers_busy"), "the swarm met the budget")
        assert.isAtMost(Number(spent), windows * GAS_PER_MINUTE)
      }))
  })
})
