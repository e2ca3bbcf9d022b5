/**
 * A player's last 30 days on their page (/p/<token>) and on the owner's player page (/players/<id>): real saves
 * through the pipeline, received at different times (set back in the store), another player's beside them.
 * In Chromium at 390 and 1280 px: nothing to swipe sideways for, and a row's link opens its map.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { SaveOutputs } from "../../src/maps/save-outputs.ts";
import { makeEncryptedSample } from "../../src/samples/index.ts";
import { noChromium, phoneBrowsersForThisFile } from "../helpers/chromium.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { writes } from "../helpers/store-writes.ts";
import { serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliLastLine } from "../helpers/owner-cli.ts";
import { PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";

const ADMIN_TOKEN = "history-test-token-0123456789";
const OTHER_PLAYER = "1234567890123456789";
const NAME = `<b>Mizuki</b> & "Ena"`;
const HOUR = 60 * 60 * 1000;
const SHOTS = "/work/notes/shots/history";

const { pair, env: keyEnv } = testKeys();
// English names: this machine's Chromium has no CJK font for the screenshots.
const start = serversForThisFile({ ...keyEnv, NOTIFY_DEFAULT: "none", ADMIN_TOKEN, MAP_LOCALE: "en" });
const openBrowser = phoneBrowsersForThisFile();
let server: RunningServer;
let playerPath: string;
/** This player's saves by age: an hour, two days, ten days and 31 days old. */
const saves: Record<"hour" | "twoDays" | "tenDays" | "old" | "other", { id: number; token: string }> = {} as never;


async function archivedSave(uploadId: string, seed: number, playerId = PLAYER_ID): Promise<{ id: number; token: string }> {
  const body = makeEncryptedSample(pair, { seed, now: Date.now(), rareEverywhere: seed % 2 === 1 });
  expect((await uploadSave(server.url, body, uploadId, playerId)).status).toBe(200);
  const id = (await reads(server).saveOfUpload(uploadId))!;
  await jobReaches(server, id, "done", 30_000, `save ${uploadId} done`);
  return { id, token: (await reads(server).archive(id))!.token };
}

beforeAll(async () => {
  server = await start();
  const ages = { hour: HOUR, twoDays: 2 * 24 * HOUR, tenDays: 10 * 24 * HOUR, old: 31 * 24 * HOUR, other: HOUR / 2 };
  const made = await Promise.all([
    archivedSave("h-hour", 41),
    archivedSave("h-two-days", 42),
    archivedSave("h-ten-days", 43),
    archivedSave("h-old", 45),
    archivedSave("h-other", 47, OTHER_PLAYER),
  ]);
  const now = Date.now();
  for (const [i, age] of (Object.keys(ages) as (keyof typeof ages)[]).entries()) {
    saves[age] = made[i]!;
    await writes(server).receivedAt(made[i]!.id, now - ages[age]);
  }
  playerPath = /\/p\/[A-Za-z0-9_-]+/.exec(await ownerCliLastLine(server, "players", "add", PLAYER_ID, "--name", NAME))![0];
}, 90_000);

const owner = { authorization: `Bearer ${ADMIN_TOKEN}` };
const page = async (path: string, headers: Record<string, string> = {}) => (await fetch(`${server.url}${path}`, { headers })).text();
/** The history section alone (the page's "Latest maps" shows archives by when they were drawn, whatever their age). */
const historyOf = (html: string) => html.slice(html.indexOf('id="history"'), html.indexOf("</section>", html.indexOf('id="history"')));
const tokensIn = (html: string) => [...historyOf(html).matchAll(/\/maps\/([0-9a-f]{32})\//g)].map((m) => m[1]!).filter((t, i, all) => all.indexOf(t) === i);
/** Each refresh's row of the history, newest first. */
const rowsOf = (html: string) => historyOf(html).split('<li class="refresh">').slice(1);
const outputsOf = async (saveId: number) => (await reads(server).outputs<SaveOutputs>(saveId))!;
const escaped = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

describe("the player's page", () => {
  test("the last 30 days of this player, newest first: not the 31-day-old refresh, not another player's", async () => {
    const html = await page(playerPath);
    expect(html).toContain("Last 30 days");
    expect(tokensIn(html)).toEqual([saves.hour.token, saves.twoDays.token, saves.tenDays.token]);
  });

  test("each refresh shows its rare finds and new songs as chips", async () => {
    const history = historyOf(await page(playerPath));
    for (const age of ["hour", "twoDays"] as const) {
      const outputs = await outputsOf(saves[age].id);
      expect(outputs.rareFinds.length).toBeGreaterThan(0);
      for (const find of outputs.rareFinds.slice(0, 6)) expect(history).toContain(escaped(`${find.resource.tier === "super" ? "★" : "◆"} ${find.resource.name} ×${find.total}`));
      const songs = outputs.totals.filter((t) => t.resource.musicRecord === "new");
      expect(songs.length).toBeGreaterThan(0);
      for (const song of songs) expect(history).toContain(escaped(`♪ ${song.resource.title ?? `record #${song.resource.id}`} · new`));
    }
  });

  test("every map link of the history opens a PNG", async () => {
    const links = [...historyOf(await page(playerPath)).matchAll(/href="(\/maps\/[0-9a-f]{32}\/[\w-]+\.png)"/g)].map((m) => m[1]!);
    expect(links.length).toBe(3 * 5); // overview and four sites, three refreshes
    for (const link of links) {
      const response = await fetch(`${server.url}${link}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect([...new Uint8Array(await response.arrayBuffer()).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    }
  });

  test("a birthday party's refresh is marked as one in the history, and its maps are the latest (the newest harvest state)", async () => {
    // "Latest maps" shows the newest archive drawn: the hour-old refresh's, drawn last here.
    const latestMapsOf = (html: string) => html.slice(0, html.indexOf('id="history"'));
    await writes(server).archivedAt(saves.hour.id, Date.now());
    expect(latestMapsOf(await page(playerPath))).toContain(`/maps/${saves.hour.token}/`);
    await writes(server).dataType(saves.hour.id, "mysekai_birthday_party");
    try {
      for (const path of [playerPath, `/players/${PLAYER_ID}`]) {
        const html = await page(path, owner);
        const [hour, ...others] = rowsOf(html);
        expect(others.length).toBe(2);
        expect(hour).toContain('<span class="chip party">birthday party refresh</span>');
        for (const row of others) expect(row).not.toContain("chip party");
        expect(latestMapsOf(html)).toContain(`/maps/${saves.hour.token}/`);
      }
      if (!noChromium) {
        mkdirSync(SHOTS, { recursive: true });
        const { browser } = await openBrowser();
        const context = await browser.newContext({ viewport: { width: 390, height: 900 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
        const tab = await context.newPage();
        await tab.goto(`${server.url}${playerPath}`);
        expect(await tab.locator("#history .refresh").first().locator(".chip.party").isVisible()).toBe(true);
        expect(await documentWidth(tab)).toBeLessThanOrEqual(390);
        await tab.locator("#history").screenshot({ path: join(SHOTS, "party-390.png") });
        await context.close();
      }
    } finally {
      await writes(server).dataType(saves.hour.id, "mysekai");
    }
  });

  test("the player's name is text, never markup", async () => {
    const html = await page(playerPath);
    expect(html).toContain(escaped(NAME));
    expect(html).not.toContain("<b>Mizuki</b>");
  });
});

describe("the owner's player page", () => {
  test("owner-only; the same history as the player's page", async () => {
    expect((await fetch(`${server.url}/players/${PLAYER_ID}`)).status).toBe(401);
    const html = await page(`/players/${PLAYER_ID}`, owner);
    expect(historyOf(html)).toBe(historyOf(await page(playerPath)));
    expect(historyOf(html)).toContain("/maps/");
    expect(html).toContain(escaped(NAME));
    expect(html).not.toContain("<b>Mizuki</b>");
  });

  test("another player's page shows that player's refresh only; the status and setup pages link to it", async () => {
    expect(tokensIn(await page(`/players/${OTHER_PLAYER}`, owner))).toEqual([saves.other.token]);
    expect(await page("/", owner)).toContain(`href="/players/${OTHER_PLAYER}"`);
    expect(await page("/setup", owner)).toContain(`href="/players/${PLAYER_ID}"`);
  });

  test("a player id that is not one is a 400 with its reason", async () => {
    const response = await fetch(`${server.url}/players/12ab`, { headers: owner });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("digits");
  });
});

/** The document is no wider than the screen: nothing to swipe sideways for (not innerWidth: a phone zooms out to show overflow, and innerWidth grows with it). */
const documentWidth = (p: import("playwright-core").Page) => p.evaluate<number>("document.documentElement.scrollWidth");

test.skipIf(noChromium)("in Chromium at 390 and 1280 px: no sideways scroll, and a refresh's link opens its map", async () => {
  mkdirSync(SHOTS, { recursive: true });
  const { browser } = await openBrowser();
  for (const width of [390, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, extraHTTPHeaders: owner, ...(width === 390 && { deviceScaleFactor: 2, isMobile: true, hasTouch: true }) });
    for (const [name, path] of [["player", playerPath], ["owner", `/players/${PLAYER_ID}`]] as const) {
      const tab = await context.newPage();
      await tab.goto(`${server.url}${path}`);
      await tab.waitForLoadState("networkidle");
      expect(await tab.locator("#history .refresh").count()).toBe(3);
      expect(await documentWidth(tab)).toBeLessThanOrEqual(width);
      await tab.locator("#history").screenshot({ path: join(SHOTS, `${name}-${width}.png`) });
      await tab.screenshot({ path: join(SHOTS, `${name}-${width}-page.png`), fullPage: true });

      const link = tab.locator("#history .refresh").first().locator(".links a").first();
      const box = (await link.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      const [map] = await Promise.all([context.waitForEvent("page"), link.click()]);
      await map.waitForLoadState("load");
      expect(map.url()).toBe(`${server.url}/maps/${saves.hour.token}/overview.png`);
      expect(await map.evaluate<string>("document.contentType")).toBe("image/png");
      expect(await map.evaluate<number>('document.querySelector("img")?.naturalWidth ?? 0')).toBeGreaterThan(500);
      await map.close();
      await tab.close();
    }
    await context.close();
  }
}, 60_000);

describe("what retention and older versions leave", () => {
  test("an archive made before digests shows the outputs model's finds; with that cleared too, its maps alone", async () => {
    const before = rowsOf(await page(playerPath));
    await writes(server).archiveDigest(saves.twoDays.id, null);
    expect(rowsOf(await page(playerPath))).toEqual(before);

    // What retention leaves after RETENTION_DAYS: no outputs model.
    await writes(server).dropOutputsOf(PLAYER_ID);
    const [hour, twoDays, tenDays] = rowsOf(await page(playerPath));
    expect([hour, tenDays]).toEqual([before[0]!, before[2]!]);
    expect(twoDays).toContain("finds not kept");
    expect(twoDays).not.toContain("chip");
    expect(twoDays).toContain(`/maps/${saves.twoDays.token}/overview.png`);
  });

  test("a name in a stored digest is text, never markup", async () => {
    // Names the catalogue lacks (resource, song, site) are shown as the stored digest has them.
    const digest = { partial: false, rare: [{ name: "<img src=x onerror=alert(1)>", tier: "super", total: 2 }], newSongs: [{ id: 999_999, title: "</span><script>x()</script>" }], more: 0, sites: [{ siteId: 99, name: "<i>site</i>" }] };
    await writes(server).archiveDigest(saves.tenDays.id, digest, ["overview.png", "site_99.png"]);
    const history = historyOf(await page(playerPath));
    expect(history).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(history).toContain("&lt;i&gt;site&lt;/i&gt;");
    expect(history).toContain("&lt;/span&gt;&lt;script&gt;");
    expect(history).not.toContain("<img");
    expect(history).not.toContain("<script>");
    expect(history).not.toContain("<i>");
  });
});
