/** Debian's Chromium driven by playwright-core, as the browser tests use it: headless, phone-sized pages. */
import { afterAll } from "bun:test";
import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
/** The browser tests are skipped only where Chromium is not installed (`.ci/run` installs it). */
export const noChromium = !existsSync(CHROMIUM);
// Without the background-networking flags Chromium keeps dialing out, and this machine has no network.
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const phoneContext = (browser: Browser) => browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });

/** A Chromium of its own and a phone-sized context in it (the caller closes the browser). */
export async function phoneBrowser(): Promise<{ browser: Browser; context: BrowserContext }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 20_000 });
  return { browser, context: await phoneContext(browser) };
}

/** One Chromium per test process, launched on first use (again if it went away); playwright ends it at exit. */
let shared: Promise<Browser> | undefined;
async function sharedBrowser(): Promise<Browser> {
  const browser = shared && (await shared.catch(() => undefined));
  if (browser?.isConnected()) return browser;
  shared = chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 20_000 });
  return shared;
}

/**
 * A phone-sized context for one test file, in the process's one Chromium (a launch costs seconds; a context is
 * as fresh as a new browser: own cookies, storage, permissions). After the file's tests every context opened in
 * it is closed (test files run one at a time in a process), so no page outlives its file.
 */
export function phoneBrowsersForThisFile(): () => Promise<{ browser: Browser; context: BrowserContext }> {
  let used: Browser | undefined;
  afterAll(async () => {
    for (const context of used?.contexts() ?? []) await context.close();
  });
  return async () => {
    used = await sharedBrowser();
    return { browser: used, context: await phoneContext(used) };
  };
}
