/**
 * The status page in headless Chromium (Debian's package, driven by playwright-core): log in, see the demo
 * save with its thumbnails, open a map. SCREENSHOT_DOCS=1 refreshes docs/status-page.png (phone-sized).
 */
import { expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { noChromium, phoneBrowsersForThisFile } from "../helpers/chromium.ts";
import { jobOfSave, one } from "../helpers/db.ts";
import { eventually, serversForThisFile } from "../helpers/in-process.ts";
import { encryptedSave, PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";

const ADMIN_TOKEN = "browser-test-token-0123456789";

const startHere = serversForThisFile();
const openBrowser = phoneBrowsersForThisFile();

test.skipIf(noChromium)("log in, see the demo save with its thumbnails, open a map (phone-sized)", async () => {
  const { pair, env } = testKeys();
  const server = await startHere({ ...env, NOTIFY_DEFAULT: "none", ADMIN_TOKEN });
  expect((await uploadSave(server.url, encryptedSave(pair, { rareEverywhere: true }), "browser-1")).status).toBe(200);
  const saveId = one<{ save_id: number }>(server, "SELECT save_id FROM upload_tasks WHERE upload_id = 'browser-1'")!.save_id;
  await eventually(() => jobOfSave(server, saveId)?.state === "done", 30_000, "the save done");

  const { context } = await openBrowser();
  const page = await context.newPage();

  const first = await page.goto(server.url);
  expect(first?.status()).toBe(401);
  expect(await page.content()).not.toContain(PLAYER_ID);
  await page.fill('input[name="token"]', ADMIN_TOKEN);
  await Promise.all([page.waitForURL(`${server.url}/`), page.click('button[type="submit"]')]);
  await page.waitForLoadState("networkidle");
  expect(await page.textContent("body")).toContain(PLAYER_ID);

  const thumbnails = page.locator(".maps img");
  expect(await thumbnails.count()).toBe(5);
  const loaded = await thumbnails.evaluateAll((images) => images.map((image) => (image as unknown as { naturalWidth: number }).naturalWidth));
  expect(loaded.every((width) => width > 0)).toBe(true);
  // The page must fit a phone: nothing wider than the viewport but the scrolling tables.
  expect(await page.evaluate<number>("document.body.scrollWidth")).toBeLessThanOrEqual(390);

  const shot = process.env.SCREENSHOT_DOCS === "1" ? resolve(import.meta.dir, "..", "..", "docs", "status-page.png") : join(server.dataDir, "status-page.png");
  await page.screenshot({ path: shot, fullPage: true });

  const [mapPage] = await Promise.all([context.waitForEvent("page"), thumbnails.first().click()]);
  await mapPage.waitForLoadState("load");
  const [contentType, width] = await mapPage.evaluate<[string, number]>('[document.contentType, document.querySelector("img")?.naturalWidth ?? 0]');
  expect(contentType).toBe("image/png");
  expect(width).toBeGreaterThan(1000);
  expect(mapPage.url()).toMatch(/\/maps\/[0-9a-f]{32}\/\w+\.png$/);
}, 60_000);
