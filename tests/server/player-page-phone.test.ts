/**
 * A player's own page (/p/<token>) and the owner's page of them (/players/<id>) on a phone (390 × 844 in Chromium):
 * the latest maps come first, the long sections are folded, and the first map is within two screens. A player with
 * a month of refreshes and watch rules: every section has rows. SHOTS_DIR=<folder> keeps the screenshots.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { makeEncryptedSample } from "../../src/samples/index.ts";
import { noChromium, phoneBrowsersForThisFile } from "../helpers/chromium.ts";
import { serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliLastLine } from "../helpers/owner-cli.ts";
import { PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { writes } from "../helpers/store-writes.ts";

const ADMIN_TOKEN = "phone-page-token-0123456789";
const SCREEN = { width: 390, height: 844 };
const DAY = 24 * 60 * 60 * 1000;
const { pair, env: keyEnv } = testKeys();
const start = serversForThisFile({ ...keyEnv, NOTIFY_DEFAULT: "none", ADMIN_TOKEN, MAP_LOCALE: "en" });
const openBrowser = phoneBrowsersForThisFile();
let server: RunningServer;
let playerPath: string;

beforeAll(async () => {
  server = await start();
  await ownerCliLastLine(server, "watch", "add", PLAYER_ID, "Diamond");
  // Twelve refreshes over twelve days: a history long enough to need folding.
  for (let day = 0; day < 12; day++) {
    const body = makeEncryptedSample(pair, { seed: 300 + day, now: Date.now(), rareEverywhere: day % 2 === 0 });
    expect((await uploadSave(server.url, body, `phone-${day}`)).status).toBe(200);
    const id = (await reads(server).saveOfUpload(`phone-${day}`))!;
    await jobReaches(server, id, "done", 30_000, `save ${day} done`);
    await writes(server).receivedAt(id, Date.now() - day * DAY - 60_000);
  }
  playerPath = /\/p\/[A-Za-z0-9_-]+/.exec(await ownerCliLastLine(server, "players", "add", PLAYER_ID, "--name", "Mizuki"))![0];
}, 120_000);

describe.skipIf(noChromium)("the player's page on a phone", () => {
  test("latest maps first, long sections folded, the first map within two screens; fits 390 px and 1280 px", async () => {
    const { browser } = await openBrowser();
    for (const [name, path, headers] of [
      ["player", () => playerPath, {}],
      ["owner", () => `/players/${PLAYER_ID}`, { authorization: `Bearer ${ADMIN_TOKEN}` }],
    ] as const) {
      const context = await browser.newContext({ viewport: SCREEN, isMobile: true, hasTouch: true, extraHTTPHeaders: headers });
      const page = await context.newPage();
      await page.goto(`${server.url}${path()}`);
      await page.waitForLoadState("networkidle");
      if (process.env.SHOTS_DIR) await page.screenshot({ path: join(process.env.SHOTS_DIR, `player-page-${name}-390.png`), fullPage: true });
      const firstMapTop = await page.evaluate<number>('document.querySelector(".maps img").getBoundingClientRect().top + window.scrollY');
      const height = await page.evaluate<number>("document.documentElement.scrollHeight");
      console.log(`${name}: first map at ${Math.round(firstMapTop)} px, page ${height} px (screen ${SCREEN.height} px)`);
      expect({ name, firstMapWithinTwoScreens: firstMapTop <= 2 * SCREEN.height }).toEqual({ name, firstMapWithinTwoScreens: true });
      // The latest maps are the first section after the page's heading.
      expect(await page.evaluate<string>('document.querySelector("main > section, body > section")?.querySelector("h2")?.textContent ?? ""')).toBe("Latest maps");
      // The history is folded past its first days, and everything folded is still on the page to open.
      expect(await page.locator("#history .refresh").count()).toBe(12);
      const visibleRows = await page.locator("#history .refresh:visible").count();
      expect(visibleRows).toBeGreaterThan(0);
      expect(visibleRows).toBeLessThan(12);
      // The month of spawn maps (a screen or more each) is folded too: 7,111 px of page before, ~3,200 after.
      expect(await page.locator("#spawns img").count()).toBeGreaterThan(0);
      expect(await page.locator("#spawns img:visible").count()).toBe(0);
      expect({ name, height, withinFourScreens: height <= 4 * SCREEN.height }).toEqual({ name, height, withinFourScreens: true });
      expect(await page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(await page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true);
      if (process.env.SHOTS_DIR) await page.screenshot({ path: join(process.env.SHOTS_DIR, `player-page-${name}-1280.png`), fullPage: true });
      await context.close();
    }
  }, 90_000);
});
