/**
 * The capture setup page in headless Chromium (as browser.test.ts): log in, pick a region and an app, see
 * the module URL, the app's install link and the QR code, copy the URL, and fetch the module it names.
 * SCREENSHOT_DOCS=1 refreshes docs/setup-page.png (phone-sized).
 */
import { expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { noChromium, phoneBrowsersForThisFile } from "../helpers/chromium.ts";
import { stashOverride } from "../../src/capture/modules.ts";
import { setupTokenOf } from "../helpers/link-tokens.ts";
import { serversForThisFile } from "../helpers/in-process.ts";
import { ownerCliLastLine } from "../helpers/owner-cli.ts";
import { reads } from "../helpers/store-reads.ts";
import { encryptedSave, PLAYER_ID, testKeys } from "../helpers/saves.ts";
import { REGION_HOSTS } from "../../src/capture/regions.ts";

const ADMIN_TOKEN = "setup-browser-token-0123456789";

const startHere = serversForThisFile();
const openBrowser = phoneBrowsersForThisFile();

test.skipIf(noChromium)("log in, pick KR and Stash, see and copy the module link, fetch the module (phone-sized)", async () => {
  const server = await startHere({ NOTIFY_DEFAULT: "none", ADMIN_TOKEN, REPORT_TOKEN: "report-tag-secret" });
  const setupToken = await setupTokenOf(server);

  const { context } = await openBrowser();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const page = await context.newPage();

  const first = await page.goto(`${server.url}/setup?region=jp`);
  expect(first?.status()).toBe(401);
  expect(await page.content()).not.toContain(setupToken);
  // A wrong token first: the login still returns to the page it stood in for, not to the status page.
  await page.fill('input[name="token"]', "wrong-token");
  await page.click('button[type="submit"]');
  await page.fill('input[name="token"]', ADMIN_TOKEN);
  await Promise.all([page.waitForURL(`${server.url}/setup?region=jp`), page.click('button[type="submit"]')]);
  expect(await page.inputValue("#module-url")).toContain("/jp/");

  await page.click('.picker a:text-is("KR")');
  await page.click('.picker a:text-is("Stash")');
  const moduleUrl = `${server.url}/setup/${setupToken}/kr/stash.stoverride?lang=en`;
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
  expect(fetched).toEqual([200, stashOverride("kr", { scriptUrl: `${server.url}/setup/${setupToken}/kr/stash.js?lang=en`, locale: "en" })]);
}, 60_000);

test.skipIf(noChromium)("a Chinese reader: preselected region and app, the whole path in steps, and the page says when the first save arrived", async () => {
  const { pair, env } = testKeys();
  const server = await startHere({ ...env, NOTIFY_DEFAULT: "none" });
  const { browser } = await openBrowser();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "zh-CN", isMobile: true, hasTouch: true });
  const page = await context.newPage();
  // No save yet: the reader's language decides: CN and Shadowrocket, for a zh-CN phone.
  await page.goto(`${server.url}/setup`);
  expect(await page.locator(".picker a.on").allTextContents()).toEqual(["CN", "Shadowrocket"]);
  expect(await page.inputValue("#module-url")).toMatch(/\/cn\/shadowrocket\.sgmodule\?lang=zh-Hans$/);
  expect(await page.locator("#steps li").count()).toBe(6);
  expect(await page.textContent("#steps")).toContain("证书信任设置");
  // Shadowrocket's own menus as its Chinese screens name them, not its English ones.
  expect(await page.locator("#steps code").allTextContents()).toEqual(["配置 → 配置文件右侧的 ⓘ → HTTPS 解密 → 证书 → 生成新的 CA 证书 → 安装证书", "配置 → ⓘ → HTTPS 解密 · 配置 → 模块"]);
  expect(await page.textContent("#first-save")).toContain("正在等待你的第一份存档");
  await page.screenshot({ path: join(process.env.SHOTS_DIR ?? server.dataDir, "setup-zh-390.png"), fullPage: true });

  // The first save arrives (from a TW phone): the page, left open, says so by itself.
  const tw = await fetch(`${server.url}/uploadSaveData`, {
    method: "POST",
    body: encryptedSave(pair),
    headers: { "X-Upload-Id": "first-1", "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": `https://${REGION_HOSTS.tw[0]}/api/user/${PLAYER_ID}/mysekai` },
  });
  expect(tw.status).toBe(200);
  await page.waitForSelector('#first-save[data-state="arrived"]', { timeout: 30_000 });
  expect(await page.textContent("#first-save")).toMatch(/第一份存档已在 .+ 收到/);

  // From now on the saves' region leads; the reader's app stays; a player's page follows their own saves.
  await page.goto(`${server.url}/setup`);
  expect(await page.locator(".picker a.on").allTextContents()).toEqual(["TW", "Shadowrocket"]);
  const playerPath = /\/p\/[A-Za-z0-9_-]+/.exec(await ownerCliLastLine(server, "players", "add", PLAYER_ID))![0];
  await page.goto(`${server.url}${playerPath}`);
  expect(await page.locator(".picker a.on").allTextContents()).toEqual(["TW", "Shadowrocket"]);
  expect(await (await fetch(`${server.url}${playerPath}/first-save?since=0`)).json()).toMatchObject({ arrived: true });
  expect(await (await fetch(`${server.url}${playerPath}/first-save?since=${Date.now() + 60_000}`)).json()).toEqual({ arrived: false, receivedAt: null });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${server.url}/setup`);
  expect(await page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
  await page.screenshot({ path: join(process.env.SHOTS_DIR ?? server.dataDir, "setup-zh-1280.png"), fullPage: true });
}, 90_000);
