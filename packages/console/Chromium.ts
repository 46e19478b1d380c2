import { chromium } from "playwright-core"

/**
 * Debian's Chromium (`apt-get install chromium`) driven by playwright-core:
 * Playwright's own browser download cannot run here. `CHROMIUM_PATH` points
 * elsewhere when it lives elsewhere.
 */
export const launchChromium = () =>
  chromium.launch({
    executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
  })
