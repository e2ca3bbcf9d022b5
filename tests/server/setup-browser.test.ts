/**
 * The capture setup page in headless Chromium (as browser.test.ts): log in, pick a region and an app, see
 * the module URL, the app's install link and the QR code, copy the URL, and fetch the module it names.
 * SCREENSHOT_DOCS=1 refreshes docs/setup-page.png (phone-sized).
 */
import { expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { noChromium, phoneBrowsersForThisFile } from "../helpers/chromium.ts";
import { stashOverride } from "../../src/capture/modules.ts";
import { one } from "../helpers/db.ts";
import { serversForThisFile } from "../helpers/in-process.ts";

const ADMIN_TOKEN = "setup-browser-token-0123456789";

const startHere = serversForThisFile();
const openBrowser = phoneBrowsersForThisFile();

test.skipIf(noChromium)("log in, pick KR and Stash, see and copy the module link, fetch the module (phone-sized)", async () => {
  const server = await startHere({ NOTIFY_DEFAULT: "none", ADMIN_TOKEN, REPORT_TOKEN: "report-tag-secret" });
  const setupToken = one<{ value: string }>(server, "SELECT value FROM settings WHERE key = 'setup_token'")!.value;

  const { context } = await openBrowser();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const page = await context.newPage();

  const first = await page.goto(`${server.url}/setup`);
  expect(first?.status()).toBe(401);
  expect(await page.content()).not.toContain(setupToken);
  await page.goto(`${server.url}/login`);
  await page.fill('input[name="token"]', ADMIN_TOKEN);
  await Promise.all([page.waitForURL(`${server.url}/`), page.click('button[type="submit"]')]);

  await page.goto(`${server.url}/setup`);
  await page.click('.picker a:text-is("KR")');
  await page.click('.picker a:text-is("Stash")');
  const moduleUrl = `${server.url}/setup/${setupToken}/kr/stash.stoverride`;
  expect(await page.inputValue("#module-url")).toBe(moduleUrl);
  expect(await page.getAttribute("#install", "href")).toBe(`stash://install-override?url=${encodeURIComponent(moduleUrl)}`);
  const qr = await page.locator(".qr svg").boundingBox();
  expect(qr!.width).toBeGreaterThan(100);
  // Reqable's URL rule names both KR hosts; the reporter tag carries REPORT_TOKEN.
  expect((await page.inputValue("#reqable-rule")).split("\n")).toHaveLength(2);
  expect(await page.inputValue("#reqable-tag")).toBe("report-tag-secret");

  await page.click('button[data-copy="module-url"]');
  await page.waitForSelector('button[data-copy="module-url"]:text-is("copied")', { timeout: 5000 });
  expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(moduleUrl);
  expect(await page.evaluate<number>("document.body.scrollWidth")).toBeLessThanOrEqual(390);

  const shot = process.env.SCREENSHOT_DOCS === "1" ? resolve(import.meta.dir, "..", "..", "docs", "setup-page.png") : join(server.dataDir, "setup-page.png");
  await page.screenshot({ path: shot, fullPage: true });

  // The module the page names is what the phone gets.
  const fetched = await page.evaluate<[number, string], string>(async (url) => {
    const answer = await fetch(url);
    return [answer.status, await answer.text()];
  }, moduleUrl);
  expect(fetched).toEqual([200, stashOverride("kr", { scriptUrl: `${server.url}/setup/${setupToken}/kr/stash.js` })]);
}, 60_000);
