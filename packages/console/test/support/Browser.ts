import { existsSync } from "node:fs"
import { mkdir, rm } from "node:fs/promises"
import { join } from "node:path"
import { Ed25519Keypair } from "@mysten/sui/keypairs/ed25519"
import { toBase64 } from "@mysten/sui/utils"
import { build } from "esbuild"
import type { Browser, Page } from "playwright-core"
import { buildConsole } from "../../build.ts"
import { launchChromium } from "../../Chromium.ts"
import { Effect } from "effect"
import { CONSOLE_DIST } from "../../../server/src/console/ConsoleRoutes.ts"

const packageRoot = join(import.meta.dirname, "../..")
export const OUTPUT = join(packageRoot, "test-output")

/** The gateway serves the built console: build it when no build is there. */
export const ensureConsoleBuilt = async () => {
  if (!existsSync(join(CONSOLE_DIST, "index.html"))) await buildConsole({ replace: false })
}

/** A fixed test key per role, so each run's wallets are the same accounts. */
export const testKey = (role: "owner" | "seller" | "sponsored" | "sessions" | "pending") => {
  const seed = new Uint8Array(32).fill({ owner: 1, seller: 2, sponsored: 3, sessions: 4, pending: 5 }[role])
  return { seed, keypair: Ed25519Keypair.fromSecretKey(seed) }
}

let walletBundle: Promise<string> | undefined

/** The test wallet as one script, bundled once per run. */
const testWalletScript = () => {
  walletBundle ??= build({
    entryPoints: [join(import.meta.dirname, "TestWallet.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome111",
    write: false,
    logLevel: "warning"
  }).then((result) => result.outputFiles.map((file) => file.text).join("\n"))
  return walletBundle
}

/** The page's errors and console errors, collected as they happen, for a story to assert there were none. */
const withProblems = (page: Page) => {
  const problems: Array<string> = []
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`))
  page.on("console", (message) => {
    // Chromium logs every non-2xx fetch; the page handles those answers itself (NOT_FINAL retries, errors shown).
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) problems.push(`console error: ${message.text()} at ${message.location().url}`)
  })
  return { page, problems }
}

/** A page of a fresh browser context with the test wallet for `seed` registered before the console loads. */
export const walletPage = async (browser: Browser, seed: Uint8Array, viewport = { width: 1200, height: 900 }) => {
  const context = await browser.newContext({ viewport, acceptDownloads: true })
  await context.addInitScript({ content: `window.testWalletSeed = ${JSON.stringify(toBase64(seed))};\n${await testWalletScript()}` })
  return withProblems(await context.newPage())
}

/** Empties a story's screenshot folder, so what is there after a run is that run's. */
export const freshOutput = (story: string) => rm(join(OUTPUT, story), { recursive: true, force: true })

/** Saves a full-page screenshot of this step under test-output/<story>/. */
export const screenshot = async (page: Page, story: string, step: string) => {
  const dir = join(OUTPUT, story)
  await mkdir(dir, { recursive: true })
  await page.screenshot({ path: join(dir, `${step}.png`), fullPage: true })
}

/** What the test wallet was asked to do, in order. */
export const walletLog = (page: Page) => page.evaluate(() => (window as Window & { testWalletLog?: Array<string> }).testWalletLog ?? [])

/** Connects the test wallet through dApp Kit's own connect button and modal, then signs in with it. */
export const connectAndSignIn = async (page: Page, baseUrl: string) => {
  await page.goto(baseUrl)
  await page.locator("mysten-dapp-kit-connect-button button").first().click()
  await page.getByText("Console Test Wallet").click()
  await page.locator("#sign-in").click()
  await page.locator("#who", { hasText: "Signed in as" }).waitFor()
}

/** A page of a fresh browser context with no wallet at all: what a newcomer without an extension sees. */
export const plainPage = async (browser: Browser, viewport = { width: 1200, height: 900 }) => {
  const context = await browser.newContext({ viewport })
  return withProblems(await context.newPage())
}

/** Connects the console's own development wallet (local mode) through dApp Kit's connect dialog, then signs in with it. */
export const connectDevWalletAndSignIn = async (page: Page, baseUrl: string) => {
  await page.goto(baseUrl)
  await page.locator("mysten-dapp-kit-connect-button button").first().click()
  await page.locator("mysten-dapp-kit-connect-modal").getByText("Development wallet (local mode)").first().click()
  await page.locator("#sign-in").click()
  await page.locator("#who", { hasText: "Signed in as" }).waitFor()
}

/**
 * One step of a story: on failure, a screenshot named for the step and the
 * page's own notices (progress, error and advice) go with the error.
 */
export const step = async (page: Page, story: string, name: string, action: () => Promise<void>) => {
  try {
    await action()
    await screenshot(page, story, name)
  } catch (cause) {
    await screenshot(page, story, `${name}-failed`).catch(() => undefined)
    const notices = await page.locator(".notices").innerText().catch(() => "(no notices)")
    throw new Error(`step ${name} failed; the page says: ${notices}`, { cause })
  }
}

/** Debian's Chromium with the console built, for one test's scope. */
export const browserOf = Effect.acquireRelease(
  Effect.promise(async () => {
    await ensureConsoleBuilt()
    return launchChromium()
  }),
  (browser: Browser) => Effect.promise(() => browser.close())
)

/** A page action as an effect. */
export const run = <A>(action: () => Promise<A>) => Effect.promise(action)
