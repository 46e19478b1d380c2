import { launchChromium } from "../../packages/console/Chromium.ts"

export interface PageWeight {
  /** Bytes on the wire for the first load of `/`: every response's headers and (compressed) body. */
  readonly transferredBytes: number
  readonly requests: number
  /** From navigation start to the first frame with the wallet controls on the page (the page's `console-interactive` mark), median of the runs. */
  readonly timeToInteractiveMs: number
  readonly domContentLoadedMs: number
}

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

/**
 * The first load of the console at `baseUrl` in headless Chromium, cold (a
 * fresh browser context, so nothing is cached), `runs` times: transferred
 * bytes and requests of the last run (they do not vary), median times.
 */
export const measurePageWeight = async (baseUrl: string, runs = 3): Promise<PageWeight> => {
  const browser = await launchChromium()
  try {
    const loads: Array<PageWeight> = []
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext()
      const page = await context.newPage()
      const sizes: Array<Promise<number>> = []
      page.on("requestfinished", (request) => {
        sizes.push(request.sizes().then((s) => s.responseHeadersSize + s.responseBodySize))
      })
      await page.goto(baseUrl, { waitUntil: "domcontentloaded" })
      // Interactive: the session panel (built by the page's script after it reads /health) holds the rendered connect button.
      await page.locator("#session mysten-dapp-kit-connect-button button").first().waitFor()
      const timeToInteractiveMs = await page.evaluate(() => performance.getEntriesByName("console-interactive")[0]?.startTime ?? Number.NaN)
      const domContentLoadedMs = await page.evaluate(() => {
        const [navigation] = performance.getEntriesByType("navigation")
        return navigation instanceof PerformanceNavigationTiming ? navigation.domContentLoadedEventEnd : Number.NaN
      })
      await page.waitForLoadState("networkidle")
      const bytes = await Promise.all(sizes)
      loads.push({ transferredBytes: bytes.reduce((a, b) => a + b, 0), requests: bytes.length, timeToInteractiveMs, domContentLoadedMs })
      await context.close()
    }
    const last = loads[loads.length - 1]
    return {
      transferredBytes: last?.transferredBytes ?? Number.NaN,
      requests: last?.requests ?? 0,
      timeToInteractiveMs: median(loads.map((l) => l.timeToInteractiveMs)),
      domContentLoadedMs: median(loads.map((l) => l.domContentLoadedMs))
    }
  } finally {
    await browser.close()
  }
}
