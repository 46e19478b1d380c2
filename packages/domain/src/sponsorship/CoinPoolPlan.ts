/** One of the sponsor's SUI coins as the chain lists it. */
export interface PoolCoin {
  readonly objectId: string
  readonly version: string
  readonly digest: string
  readonly balance: bigint
}

/** A coin version somebody holds: a build or maintenance, reserved or co-signed. */
export interface HeldCoin {
  readonly coinId: string
  readonly coinVersion: string
  readonly state: "reserved" | "signed"
  readonly epoch: bigint
}

/** The pool the sponsor keeps (SPONSOR_POOL_COINS, SPONSOR_COIN_MIST). */
export interface PoolShape {
  /** Free coins the pool keeps, so that many builds can hold one each at once. */
  readonly coins: number
  /** What each coin split off holds. */
  readonly coinMist: bigint
  /** A coin below this cannot pay the largest budget: dust, merged back. */
  readonly dustBelow: bigint
  /** Left on the source coin for the maintenance transaction's own gas. */
  readonly gasReserve: bigint
}

/** One maintenance transaction: pay gas from `source` with `merge` beside it (the chain merges gas coins into the first), and split `split` coins off. */
export interface PoolPlan {
  readonly source: PoolCoin
  readonly merge: ReadonlyArray<PoolCoin>
  readonly split: number
}

/** Per transaction: Sui takes at most 256 gas coins, and a split this size stays far within its object limits. */
const MAX_MERGED = 64
const MAX_SPLIT = 128
/** Dust alone is merged once this many coins gathered, so a round does not spend gas to tidy one coin. */
const MIN_DUST_MERGE = 2

const byBalanceDescending = (a: PoolCoin, b: PoolCoin) => (a.balance === b.balance ? a.objectId.localeCompare(b.objectId) : a.balance > b.balance ? -1 : 1)
const byBalanceAscending = (a: PoolCoin, b: PoolCoin) => (a.balance === b.balance ? a.objectId.localeCompare(b.objectId) : a.balance < b.balance ? -1 : 1)

/** The largest free coin is the pool's reservoir: builds leave it to the leader while it can still split a coin off. */
const reservoirOf = (free: ReadonlyArray<PoolCoin>, shape: PoolShape): PoolCoin | undefined => {
  const [largest] = [...free].sort(byBalanceDescending)
  return largest !== undefined && largest.balance >= shape.gasReserve + shape.dustBelow + shape.coinMist ? largest : undefined
}

/**
 * The coins a build may take: free (nobody holds them) and able to pay any
 * sponsored budget, the reservoir aside, so owners holding builds can never
 * hold the coin the pool is refilled from.
 */
export const buildCoins = (coins: ReadonlyArray<PoolCoin>, held: ReadonlySet<string>, shape: PoolShape): ReadonlyArray<PoolCoin> => {
  const free = coins.filter((c) => !held.has(c.objectId))
  const reservoir = reservoirOf(free, shape)
  return free.filter((c) => c !== reservoir && c.balance >= shape.dustBelow)
}

/** The pool runs low below a quarter of its size: a build that sees this asks the leader for a round. */
export const runsLow = (free: number, shape: PoolShape): boolean => free < Math.max(1, Math.ceil(shape.coins / 4))

/** The coins one build of a given budget may try, and what its refusal says when none is free. */
export interface BuildCandidates {
  readonly coins: ReadonlyArray<PoolCoin>
  /** Under a quarter of the pool is free: the build asks the leader for a round. */
  readonly runsLow: boolean
  /** Some coin of the sponsor's could pay the budget: none free means busy, not unfunded. */
  readonly funded: boolean
}

/** The free coins that can pay `budget` (see `buildCoins`); whether the pool runs low; whether the sponsor could pay it at all. */
export const buildCandidates = (coins: ReadonlyArray<PoolCoin>, held: ReadonlySet<string>, shape: PoolShape, budget: bigint): BuildCandidates => {
  const free = buildCoins(coins, held, shape)
  return { coins: free.filter((c) => c.balance >= budget), runsLow: runsLow(free.length, shape), funded: coins.some((c) => c.balance >= budget) }
}

/** What a round finds held: the co-signed versions it lets go of, and the coins still held. */
export interface Holds {
  readonly dead: ReadonlyArray<HeldCoin>
  readonly stillHeld: ReadonlySet<string>
}

/**
 * A co-signed coin version that is no longer the coin's current one (the
 * transaction executed, or the coin moved on), or whose epoch ended, can never
 * execute: it is dead and held no longer. Everything else stays held.
 */
export const sortHolds = (coins: ReadonlyArray<PoolCoin>, held: ReadonlyArray<HeldCoin>, epoch: bigint): Holds => {
  const current = new Set(coins.map((c) => `${c.objectId}@${c.version}`))
  const isDead = (h: HeldCoin) => h.state === "signed" && (!current.has(`${h.coinId}@${h.coinVersion}`) || h.epoch < epoch)
  return { dead: held.filter(isDead), stillHeld: new Set(held.filter((h) => !isDead(h)).map((h) => h.coinId)) }
}

/**
 * What one maintenance round does, if anything: the largest free coin (the
 * reservoir) splits off enough coins of `coinMist` that `coins` are free for
 * builds again (as far as its balance allows, keeping itself usable), and
 * free dust is merged into it. Held coins (reserved for a build, or
 * co-signed) are never touched.
 */
export const planPool = (coins: ReadonlyArray<PoolCoin>, held: ReadonlySet<string>, shape: PoolShape): PoolPlan | undefined => {
  const free = coins.filter((c) => !held.has(c.objectId)).sort(byBalanceDescending)
  const [source, ...rest] = free
  if (source === undefined) return undefined
  // The smallest dust first: a round tidies what is least use on its own.
  const merge = rest.filter((c) => c.balance < shape.dustBelow).sort(byBalanceAscending).slice(0, MAX_MERGED)
  const forBuilds = rest.filter((c) => c.balance >= shape.dustBelow).length
  const total = merge.reduce((sum, c) => sum + c.balance, source.balance)
  const spare = total - shape.gasReserve - shape.dustBelow
  const affordable = spare > 0n ? Number(spare / shape.coinMist) : 0
  const split = Math.max(0, Math.min(shape.coins - forBuilds, affordable, MAX_SPLIT))
  if (split === 0 && merge.length < MIN_DUST_MERGE) return undefined
  return { source, merge, split }
}
