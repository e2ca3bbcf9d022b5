/**
 * The status page in headless Chromium (Debian's package, driven by playwright-core): log in, see the demo
 * save with its thumbnails, open a map. SCREENSHOT_DOCS=1 refreshes docs/status-page.png (phone-sized).
 */
import { expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { noChromium, phoneBrowsersForThisFile } from "../helpers/chromium.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { serversForThisFile } from "../helpers/in-process.ts";
import { ownerCliLastLine } from "../helpers/owner-cli.ts";
import { encryptedSave, PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";

const ADMIN_TOKEN = "browser-test-token-0123456789";

const startHere = serversForThisFile();
const openBrowser = phoneBrowsersForThisFile();

test.skipIf(noChromium)("log in, see the demo save with its thumbnails, open a map (phone-sized)", async () => {
  const { pair, env } = testKeys();
  const server = await startHere({ ...env, NOTIFY_DEFAULT: "none", ADMIN_TOKEN });
  expect((await uploadSave(server.url, encryptedSave(pair, { rareEverywhere: true }), "browser-1")).status).toBe(200);
  const saveId = (await reads(server).saveOfUpload("browser-1"))!;
  await jobReaches(server, saveId, "done", 30_000, "the save done");

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
  expect(width).toBeGreaterThanOrEqual(1000); // the full map (1000 px wide), not a thumbnail
  expect(mapPage.url()).toMatch(/\/maps\/[0-9a-f]{32}\/\w+\.png$/);
}, 60_000);

/** Every element is inside the viewport's width: nothing to swipe sideways for. */
const fitsWidth = (page: import("playwright-core").Page) => page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth");

test.skipIf(noChromium)("owner pages fit 390 px and 1280 px; failed rows show their state and retry; banners say what to set", async () => {
  const { pair, env } = testKeys();
  const keyed = await startHere({ ...env, NOTIFY_DEFAULT: "none", PUBLIC_BASE_URL: "http://127.0.0.1:9" });
  expect((await uploadSave(keyed.url, encryptedSave(pair, { rareEverywhere: true }), "fit-1")).status).toBe(200);
  expect((await uploadSave(keyed.url, new Uint8Array(4096).fill(7), "fit-junk")).status).toBe(200);
  const junkId = (await reads(keyed).saveOfUpload("fit-junk"))!;
  await jobReaches(keyed, junkId, "failed", 30_000, "the junk failed");
  const keyless = await startHere({ DISCORD_WEBHOOK_URL: "http://127.0.0.1:9/hook", PUBLIC_BASE_URL: "https://sekai.example.com" });
  await ownerCliLastLine(keyed, "api-tokens", "add", "lunabot-for-the-big-group", "--players", `${PLAYER_ID},1234567890123456789`);
  const playerPage = /\/p\/[A-Za-z0-9_-]+/.exec(await ownerCliLastLine(keyed, "players", "add", PLAYER_ID, "--name", "Mizuki"))![0];

  const { browser } = await openBrowser();
  for (const width of [390, 1280]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(keyed.url);
    expect(await fitsWidth(page)).toBe(true);
    // A failed row's state and its retry button are on screen, not past the right edge.
    for (const selector of [".tag.failed", 'form[action="/status/retry"] input[name="save"] + button']) {
      const box = (await page.locator(selector).first().boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    // PUBLIC_BASE_URL of this machine: flagged on the status page too, not on /setup alone.
    expect(await page.locator("[data-banner]").evaluateAll((found) => found.map((b) => b.getAttribute("data-banner")))).toEqual(["no-channel", "loopback-public-url"]);
    const revoke = (await page.locator('form[action="/status/api-tokens/revoke"] button').boundingBox())!;
    expect(revoke.x + revoke.width).toBeLessThanOrEqual(width);
    await page.screenshot({ path: join(keyed.dataDir, `status-${width}.png`), fullPage: true });
    await page.goto(`${keyed.url}${playerPage}`);
    expect(await fitsWidth(page)).toBe(true);
    const toggle = 'form[action$="/public"] button';
    const before = await page.textContent(toggle);
    const reloaded = page.waitForResponse((r) => r.url() === `${keyed.url}${playerPage}` && r.request().method() === "GET");
    await page.click(toggle);
    await reloaded;
    expect(await page.textContent(toggle)).toBe(before === "Turn public reads on" ? "Turn public reads off" : "Turn public reads on");
    await page.screenshot({ path: join(keyed.dataDir, `player-${width}.png`), fullPage: true });
    await page.goto(`${keyed.url}/setup`);
    expect(await fitsWidth(page)).toBe(true);
    expect(await page.locator("[data-banner]").getAttribute("data-banner")).toBe("loopback-public-url");

    await page.goto(keyless.url);
    expect(await fitsWidth(page)).toBe(true);
    expect(await page.locator("[data-banner]").evaluateAll((found) => found.map((b) => b.getAttribute("data-banner")))).toEqual(["no-key"]);
    expect(await page.textContent('[data-banner="no-key"]')).toContain("Set AES_KEY and AES_IV");
    await page.goto(`${keyless.url}/setup`);
    expect(await page.locator("[data-banner]").count()).toBe(0);
    await page.close();
  }
}, 90_000);
