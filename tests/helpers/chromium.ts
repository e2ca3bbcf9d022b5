/** Debian's Chromium driven by playwright-core, as the browser tests use it: headless, phone-sized pages. */
import { afterAll } from "bun:test";
import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
/** The browser tests are skipped only where Chromium is not installed (`.ci/run` installs it). */
export const noChromium = !existsSync(CHROMIUM);
// Without the background-networking flags Chromium keeps dialing out, and this machine has no network.
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export async function phoneBrowser(): Promise<{ browser: Browser; context: BrowserContext }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 20_000 });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  return { browser, context };
}

/** phoneBrowser() for one test file: every browser it opens is closed after the file's tests. */
export function phoneBrowsersForThisFile(): () => Promise<{ browser: Browser; context: BrowserContext }> {
  const opened: Browser[] = [];
  afterAll(async () => {
    for (const browser of opened) await browser.close();
  });
  return async () => {
    const session = await phoneBrowser();
    opened.push(session.browser);
    return session;
  };
}
