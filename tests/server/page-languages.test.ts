/**
 * Every page in each of the five languages, in Chromium at 390 px: the page's <html lang>, and no word of English
 * left in a Chinese, Japanese or Korean page (only names that stay as they are: MySekai, the apps, setting names,
 * units, URLs, and what is marked translate="no": player ids and names, tokens, error text, commands). The language
 * follows Accept-Language, the switch on the page is remembered, PAGE_LOCALE fixes it; every time says its zone.
 * SHOTS_DIR=<folder> keeps screenshots of the player's page per language there.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { REGION_HOSTS } from "../../src/capture/regions.ts";
import type { Locale } from "../../src/i18n/locales.ts";
import { MESSAGES } from "../../src/i18n/messages/index.ts";
import { noChromium, phoneBrowsersForThisFile } from "../helpers/chromium.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { englishWords } from "../helpers/english-words.ts";
import { ownerCliLastLine } from "../helpers/owner-cli.ts";
import { encryptedSave, PLAYER_ID, testKeys } from "../helpers/saves.ts";

const ADMIN_TOKEN = "languages-test-token-0123456789";
const { pair, env: keyEnv } = testKeys();
const start = serversForThisFile({ ...keyEnv, NOTIFY_DEFAULT: "none", ADMIN_TOKEN, REPORT_TOKEN: "report-token-0123456789" });
const openBrowser = phoneBrowsersForThisFile();
let server: RunningServer;
let playerPath: string;
let browser: Browser;

/** Each language as a browser asks for it. */
const ACCEPT: Record<Locale, string> = { "zh-Hans": "zh-CN", "zh-Hant": "zh-TW", ja: "ja-JP", ko: "ko-KR", en: "en-US" };

/** The page's visible text and title, without what is marked translate="no" or written in another language. */
async function translatableText(page: Page): Promise<string> {
  return page.evaluate<string>(`(() => {
    const body = document.body.cloneNode(true);
    const lang = document.documentElement.lang;
    for (const node of body.querySelectorAll('[translate="no"], script, style, svg')) node.remove();
    for (const node of body.querySelectorAll("[lang]")) if (node.getAttribute("lang") !== lang) node.remove();
    document.body.after(body);
    body.hidden = false;
    const text = body.innerText;
    body.remove();
    return document.title + "\\n" + text;
  })()`);
}

async function openAs(locale: Locale, path: string, headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: ACCEPT[locale], extraHTTPHeaders: headers });
  const page = await context.newPage();
  await page.goto(`${server.url}${path}`);
  return page;
}

beforeAll(async () => {
  server = await start();
  ({ browser } = await openBrowser());
  // A CN save with rare finds (watched: a chip in the history, a spawn image), a junk save that fails, a player
  // link, an API token, nudges on: every section has rows.
  await ownerCliLastLine(server, "watch", "add", PLAYER_ID, "Diamond");
  await ownerCliLastLine(server, "watch", "add", "*", "mysekai_material:12");
  await ownerCliLastLine(server, "watch", "nudge", PLAYER_ID, "on");
  const response = await fetch(`${server.url}/uploadSaveData`, {
    method: "POST",
    body: encryptedSave(pair, { rareEverywhere: true }),
    headers: { "X-Upload-Id": "cn-1", "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": `https://${REGION_HOSTS.cn[0]}/api/user/${PLAYER_ID}/mysekai` },
  });
  expect(response.status).toBe(200);
  const junk = await fetch(`${server.url}/uploadSaveData`, {
    method: "POST",
    body: new Uint8Array(4096).fill(7),
    headers: { "X-Upload-Id": "junk-1", "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": `https://${REGION_HOSTS.cn[0]}/api/user/1234567890123456789/mysekai` },
  });
  expect(junk.status).toBe(200);
  for (const id of ["cn-1", "junk-1"]) {
    const saveId = (await reads(server).saveOfUpload(id))!;
    await eventually(async () => ["done", "failed"].includes((await reads(server).job(saveId))?.state ?? ""), 30_000, `${id} finished`);
  }
  playerPath = /\/p\/[A-Za-z0-9_-]+/.exec(await ownerCliLastLine(server, "players", "add", PLAYER_ID, "--name", "Mizuki"))![0];
  await ownerCliLastLine(server, "api-tokens", "add", "lunabot");
}, 90_000);

const PAGES = () => [
  { name: "status", path: "/" },
  { name: "setup", path: "/setup" },
  { name: "owner's player page", path: `/players/${PLAYER_ID}` },
  { name: "player's own page", path: playerPath },
  { name: "player's own page, public reads on", path: playerPath, publicOn: true },
  { name: "login", path: "/", headers: {} },
];

describe.skipIf(noChromium)("each page in each language at 390 px", () => {
  for (const locale of ["zh-Hans", "zh-Hant", "ja", "ko"] as const) {
    test(`${locale}: <html lang>, not one English word, no sideways swipe at 390 px or 1280 px`, async () => {
      for (const { name, path, headers, publicOn } of PAGES()) {
        const page = await openAs(locale, path, headers);
        if (publicOn) await Promise.all([page.waitForURL(`${server.url}${playerPath}`), page.click(`form[action="${playerPath}/public"] button`)]);
        expect({ name, lang: await page.getAttribute("html", "lang") }).toEqual({ name, lang: locale });
        expect({ name, english: englishWords(await translatableText(page)) }).toEqual({ name, english: [] });
        if (name === "player's own page") {
          // The watch sections are there to be read: a watched chip, a spawn image, capture health, the nudge switch.
          const shown = async (selector: string) => page.locator(selector).count();
          const counts = { chips: await shown(".chip.watched"), spawns: await shown("#spawns img"), health: await shown("#capture-health dt"), watch: await shown("#watch input[checked]"), nudge: await shown("#nudges button") };
          expect({ ...counts, chips: counts.chips > 0, spawns: counts.spawns > 0 }).toEqual({ chips: true, spawns: true, health: 3, watch: 1, nudge: 1 });
        }
        const fits = () => page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth");
        expect({ name, fits: await fits() }).toEqual({ name, fits: true });
        if (process.env.SHOTS_DIR && (name === "player's own page" || name === "status")) {
          mkdirSync(process.env.SHOTS_DIR, { recursive: true });
          await page.screenshot({ path: join(process.env.SHOTS_DIR, `${name === "status" ? "status" : "player-page"}-${locale}-390.png`), fullPage: true });
        }
        await page.setViewportSize({ width: 1280, height: 900 });
        expect({ name, desktop: await fits() }).toEqual({ name, desktop: true });
        if (publicOn) await page.click(`form[action="${playerPath}/public"] button`);
        await page.context().close();
      }
    }, 60_000);
  }

  test("en: the same pages in English, <html lang=en>", async () => {
    for (const { name, path, headers } of PAGES()) {
      const page = await openAs("en", path, headers);
      expect({ name, lang: await page.getAttribute("html", "lang") }).toEqual({ name, lang: "en" });
      expect(await page.textContent("body")).toMatch(/Latest maps|Capture setup|Log in/);
      await page.context().close();
    }
  }, 60_000);

  test("the test itself sees English: the English status page is full of words it refuses", async () => {
    const page = await openAs("en", "/");
    expect(englishWords(await translatableText(page))).toEqual(expect.arrayContaining(["Latest", "maps", "Recent", "saves"]));
    await page.context().close();
  });
});

describe.skipIf(noChromium)("the reader's language: Accept-Language, the remembered switch, PAGE_LOCALE", () => {
  test("Accept-Language picks the page's language; the switch changes it, and every page after remembers it", async () => {
    const page = await openAs("ko", "/");
    expect(await page.getAttribute("html", "lang")).toBe("ko");
    expect(await page.locator('nav.lang a[aria-current="true"]').textContent()).toBe("한국어");
    await Promise.all([page.waitForURL(/lang=zh-Hant/), page.click('nav.lang a[lang="zh-Hant"]')]);
    expect(await page.getAttribute("html", "lang")).toBe("zh-Hant");
    expect(await page.textContent("h2")).toBe("最近 24 小時");
    // Another page, no query: the cookie remembers the choice over Accept-Language.
    await page.goto(`${server.url}/setup`);
    expect(await page.getAttribute("html", "lang")).toBe("zh-Hant");
    await page.goto(`${server.url}${playerPath}`);
    expect(await page.getAttribute("html", "lang")).toBe("zh-Hant");
    await page.context().close();
    // A browser that never chose follows its Accept-Language, q-values honoured.
    const asked = await fetch(`${server.url}/`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "accept-language": "en;q=0.3, ja;q=0.8, zh-HK;q=0.9" } });
    expect(await asked.text()).toContain('<html lang="zh-Hant">');
    expect(asked.headers.get("content-language")).toBe("zh-Hant");
    const none = await fetch(`${server.url}/`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "accept-language": "fr-FR, de;q=0.5" } });
    expect(await none.text()).toContain('<html lang="en">');
    // Refusals a browser shows as they are: a map link from a push, an unknown page, a player's form.
    const text = async (path: string, language: string, init: RequestInit = {}) => (await fetch(`${server.url}${path}`, { ...init, headers: { "accept-language": language, ...init.headers } })).text();
    expect(await text(`/maps/${"0".repeat(32)}/site_5.png`, "ja")).toBe("見つかりません");
    expect(await text("/nothing-here", "ko-KR")).toBe("찾을 수 없습니다");
    expect(await text(`${playerPath}/public`, "zh-CN", { method: "POST", body: "on=2", headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url } })).toBe("on 必须是 1 或 0");
    expect(await text("/nothing-here", "")).toBe("not found");
  }, 60_000);

  test("the login page's switch leads to /login, never repeats the page it stands in for", async () => {
    const page = await openAs("ja", `/players/${PLAYER_ID}`, {});
    expect(await page.getAttribute("html", "lang")).toBe("ja");
    const links = await page.locator("nav.lang a").evaluateAll((found) => found.map((a) => a.getAttribute("href")));
    expect(links).toEqual(["/login?lang=zh-Hans", "/login?lang=zh-Hant", "/login?lang=ja", "/login?lang=ko", "/login?lang=en"]);
    expect(await page.content()).not.toContain(PLAYER_ID);
    await page.context().close();
  });

  test("PAGE_LOCALE fixes the language: no switch, and neither the query, the cookie nor Accept-Language changes it", async () => {
    const fixed = await start({ PAGE_LOCALE: "ja" });
    const response = await fetch(`${fixed.url}/?lang=ko`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "accept-language": "zh-CN", cookie: "lang=en" } });
    const html = await response.text();
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain("最新のマップ");
    expect(html).not.toContain('class="lang"');
    expect(response.headers.get("set-cookie")).toBeNull();
  });
});

test("a failure's reason is its kind in the page's language, its raw text (as logged) behind a toggle", async () => {
  const html = await (await fetch(`${server.url}/`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "accept-language": "zh-CN" } })).text();
  const cell = /<details data-kind="(\w+)"><summary>([^<]+)<\/summary><code translate="no">([^<]+)<\/code><\/details>/.exec(html);
  expect(cell).not.toBeNull();
  const [, kind, summary, raw] = cell!;
  // The junk save: it decrypts under no key; the English detail stays for whoever needs it.
  expect([kind, summary]).toEqual(["decrypt", MESSAGES["zh-Hans"].errorKinds.decrypt]);
  expect(raw).toMatch(/[a-z]{3,}/);
});

describe("times say their zone, and agree on one page", () => {
  /** The times of a page part: "07:42 UTC+8" each (the day left out). */
  const timesOf = (html: string) => [...html.matchAll(/<time datetime="[^"]+">(?:\d\d-\d\d )?(\d\d:\d\d) <span class="zone">([^<]+)<\/span><\/time>/g)].map((m) => `${m[1]} ${m[2]}`);
  const latestMaps = (html: string) => timesOf(/<div class="player">[\s\S]*?<\/section>/.exec(html)?.[0] ?? "");
  const history = (html: string) => timesOf(/id="history"[\s\S]*?<\/section>/.exec(html)?.[0] ?? "");
  const hhmm = (ms: number, timeZone: string) => new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(ms);

  test("a CN save: the player's latest maps and history show the same time, in UTC+8, the zone its maps were drawn in", async () => {
    const html = await (await fetch(`${server.url}${playerPath}`)).text();
    const saveId = (await reads(server).saveOfUpload("cn-1"))!;
    expect((await reads(server).outputs<{ timeZone: string }>(saveId))!.timeZone).toBe("Asia/Shanghai");
    expect(latestMaps(html)).toEqual([`${hhmm((await reads(server).saveRow(saveId))!.received_at, "Asia/Shanghai")} UTC+8`]);
    expect(history(html)).toEqual(latestMaps(html));
    const owners = await (await fetch(`${server.url}/players/${PLAYER_ID}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
    expect([...latestMaps(owners), ...history(owners)]).toEqual([...latestMaps(html), ...history(html)]);
    // The status page, read in Korean: the save's row, its maps, and the times of no save (the API token's) all
    // in the zone of the server's saves, not of the reader's language.
    const status = await (await fetch(`${server.url}/`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "accept-language": "ko" } })).text();
    expect(timesOf(status)).toContain(latestMaps(html)[0]!);
    expect(timesOf(status).length).toBeGreaterThanOrEqual(4);
    expect(timesOf(status).filter((time) => !time.endsWith(" UTC+8"))).toEqual([]);
  });

  test("MAP_TIMEZONE moves every time of a CN save: its maps, the latest maps and the history", async () => {
    const tokyo = await start({ MAP_TIMEZONE: "Asia/Tokyo" });
    const response = await fetch(`${tokyo.url}/uploadSaveData`, {
      method: "POST",
      body: encryptedSave(pair),
      headers: { "X-Upload-Id": "tokyo-1", "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": `https://${REGION_HOSTS.cn[0]}/api/user/${PLAYER_ID}/mysekai` },
    });
    expect(response.status).toBe(200);
    const saveId = (await reads(tokyo).saveOfUpload("tokyo-1"))!;
    await jobReaches(tokyo, saveId, "done", 30_000, "the save done");
    const path = /\/p\/[A-Za-z0-9_-]+/.exec(await ownerCliLastLine(tokyo, "players", "add", PLAYER_ID))![0];
    const html = await (await fetch(`${tokyo.url}${path}`)).text();
    expect((await reads(tokyo).outputs<{ timeZone: string }>(saveId))!.timeZone).toBe("Asia/Tokyo");
    expect(latestMaps(html)).toEqual([`${hhmm((await reads(tokyo).saveRow(saveId))!.received_at, "Asia/Tokyo")} UTC+9`]);
    expect(history(html)).toEqual(latestMaps(html));
  }, 60_000);

  test.skipIf(noChromium)("the status page at 390 px shows each time's zone (the table's header row is hidden there)", async () => {
    const page = await openAs("en", "/");
    const zones = page.locator(".scroll time .zone");
    expect(await zones.count()).toBeGreaterThan(0);
    expect(await zones.first().isVisible()).toBe(true);
    expect(await zones.first().textContent()).toBe("UTC+8");
    await page.context().close();
  });
});
