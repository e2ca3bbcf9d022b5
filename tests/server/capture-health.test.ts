/**
 * Capture health on the player's page (/p/<token>): the newest save, its source, server and whether it was a full
 * or a partial refresh, and the newest failure with its kind (wrong key, junk), in the page's language (as every
 * section: Accept-Language, the switch, PAGE_LOCALE), its times in the save's server's zone. In Chromium at 390 px and desktop: nothing to swipe sideways, the watch form ticks and saves without script.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { encode } from "@msgpack/msgpack";
import { makeEncryptedSample, makeSampleMySekaiSave, randomKeys } from "../../src/samples/index.ts";
import { encryptAesCbc } from "../../src/save/index.ts";
import { noChromium, phoneBrowsersForThisFile } from "../helpers/chromium.ts";
import { uploadFinished } from "../helpers/regional-upload.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCli, ownerCliLastLine } from "../helpers/owner-cli.ts";
import { encryptRaw, rawSave, testKeys } from "../helpers/saves.ts";

const JP_PLAYER = "1000000000000000021";
const EN_PLAYER = "1000000000000000022";
const SHOTS = "/tmp/shots";
const { pair, env: keyEnv } = testKeys();
const start = serversForThisFile({ ...keyEnv, NOTIFY_DEFAULT: "none" });
const openBrowser = phoneBrowsersForThisFile();
let server: RunningServer;
const paths: Record<string, string> = {};

const send = (playerId: string, region: "jp" | "en", body: Uint8Array) => uploadFinished(server, playerId, region, body);
const page = async (playerId: string, acceptLanguage = "en") => (await fetch(`${server.url}${paths[playerId]}`, { headers: { "accept-language": acceptLanguage } })).text();
const health = (html: string) => html.slice(html.indexOf('id="capture-health"'), html.indexOf("</section>", html.indexOf('id="capture-health"')));

beforeAll(async () => {
  server = await start();
  for (const player of [JP_PLAYER, EN_PLAYER]) paths[player] = /\/p\/[A-Za-z0-9_-]+/.exec(await ownerCliLastLine(server, "players", "add", player))![0];
}, 60_000);

describe("capture health", () => {
  test("before any save: says none arrived and points to the setup, in the page's language", async () => {
    expect(health(await page(EN_PLAYER))).toContain("No save received yet");
    expect(health(await page(EN_PLAYER, "ja-JP"))).toContain("まだセーブを受け取っていません");
    expect(health(await page(EN_PLAYER, "ko-KR"))).toContain("아직 받은 세이브가 없습니다");
  });

  test("a full save, then a partial refresh (with the fix), in the English server's language", async () => {
    await send(EN_PLAYER, "en", makeEncryptedSample(pair, { seed: 3, now: Date.now(), rareEverywhere: true }));
    let shown = health(await page(EN_PLAYER));
    expect(shown).toContain("upload (capture module)");
    expect(shown).toContain("<dd>EN</dd>");
    expect(shown).toContain("full refresh");
    expect(shown).toContain("<dd>none</dd>");
    await send(EN_PLAYER, "en", encryptRaw(pair, rawSave({ ...makeSampleMySekaiSave({ seed: 4 }), sites: [] })));
    shown = health(await page(EN_PLAYER));
    expect(shown).toContain("partial refresh (no harvest maps)");
    expect(shown).toContain("Open MySekai again from the title screen");
  });

  test("the newest failure and its kind: a wrong key, then junk; in the page's language, times in JP's zone", async () => {
    await send(JP_PLAYER, "jp", makeEncryptedSample(pair, { seed: 5, now: Date.now() }));
    expect(health(await page(JP_PLAYER, "ja"))).toContain("全体更新");
    expect(health(await page(JP_PLAYER))).toContain("full refresh");
    const other = randomKeys().pair;
    await send(JP_PLAYER, "jp", makeEncryptedSample(other, { seed: 6, now: Date.now() }));
    expect(health(await page(JP_PLAYER, "ja"))).toContain("鍵が違います");
    expect(health(await page(JP_PLAYER, "zh-CN"))).toContain("密钥不对");
    await send(JP_PLAYER, "jp", encryptAesCbc(encode({ hello: "not a save" }), pair.key, pair.iv));
    const shown = health(await page(JP_PLAYER, "ja"));
    expect(shown).toContain("マイセカイのセーブではありません");
    expect(shown).toContain("最新の失敗");
    // Both times (the last save's and the failure's) say their zone: JP's, whatever the page's language.
    expect(health(await page(JP_PLAYER)).match(/<span class="zone">UTC\+9<\/span>/g)?.length).toBe(2);
  });
});

describe("the player's nudge switch", () => {
  test("on and off from their page, same origin only; the CLI sees it", async () => {
    const path = paths[JP_PLAYER]!;
    const post = (body: string, headers: Record<string, string> = { origin: server.url }) =>
      fetch(`${server.url}${path}/nudge`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body });
    expect(await page(JP_PLAYER)).toContain("Turn nudges on");
    expect((await post("on=1", { origin: "https://evil.example" })).status).toBe(403);
    expect((await post("on=yes")).status).toBe(400);
    expect((await post("on=1")).status).toBe(303);
    expect(await page(JP_PLAYER)).toContain("On: when no full save arrives within 3 h");
    expect((await ownerCli(server, "watch", "nudge", JP_PLAYER, "on", "5")).code).toBe(0);
    expect(await page(JP_PLAYER)).toContain("within 5 h");
    expect((await post("on=0")).status).toBe(303);
    expect(await page(JP_PLAYER)).toContain("Turn nudges on");
    expect((await ownerCli(server, "watch", "nudge", JP_PLAYER, "on", "12")).code).toBe(1);
  });
});

describe.skipIf(noChromium)("the player's page in Chromium", () => {
  test("at 390 px and desktop: no sideways scroll; the watch list ticks and saves without script", async () => {
    await ownerCli(server, "watch", "add", EN_PLAYER, "Diamond");
    await send(EN_PLAYER, "en", makeEncryptedSample(pair, { seed: 7, now: Date.now(), rareEverywhere: true }));
    const { context } = await openBrowser();
    await context.setExtraHTTPHeaders({});
    const tab = await context.newPage();
    await tab.goto(`${server.url}${paths[EN_PLAYER]}`);
    expect(await tab.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
    // The groups fold (a phone scrolls past 73 checkboxes otherwise); one with a tick opens by itself.
    expect(await tab.locator('input[value="mysekai_material:12"]').isVisible()).toBe(true);
    expect(await tab.locator('input[value="mysekai_material:33"]').isVisible()).toBe(false);
    await tab.locator("#watch summary", { hasText: /^Rare ·/ }).click();
    await tab.locator('input[value="mysekai_material:33"]').check();
    await tab.locator('#watch button[type="submit"]').click();
    await tab.waitForURL(/#watch$/);
    expect(await tab.locator('input[value="mysekai_material:33"]').isChecked()).toBe(true);
    expect((await ownerCli(server, "watch", "list", EN_PLAYER)).out).toContain("mysekai_material:33");
    mkdirSync(SHOTS, { recursive: true });
    await tab.screenshot({ path: `${SHOTS}/watch-player-390.png`, fullPage: true });
    await tab.locator("#capture-health").screenshot({ path: `${SHOTS}/watch-health-390.png` });
    await tab.locator("#watch").screenshot({ path: `${SHOTS}/watch-form-390.png` });
    await tab.locator("#history").screenshot({ path: `${SHOTS}/watch-history-390.png` });
    await tab.setViewportSize({ width: 1280, height: 900 });
    expect(await tab.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(1280);
    await tab.screenshot({ path: `${SHOTS}/watch-player-desktop.png`, fullPage: true });
  }, 60_000);
});
