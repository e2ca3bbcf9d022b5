/**
 * Capture setup served by the real server: module and script URLs behind the setup token (404 for a wrong
 * or old one, rotation from the CLI and the page), the served text equal to the generators' output, the
 * served script run in an app imitation gets a save archived, /setup behind the owner's rules, and hub
 * players' links (their uploads only for their own id, their page showing only their maps).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { MODULE_FORMATS } from "../../src/capture/modules.ts";
import { httpClientUploadScript, quantumultXUploadScript } from "../../src/capture/upload-script.ts";
import { setupTokenOf } from "../helpers/link-tokens.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { runInApp } from "../helpers/proxy-app-harness.ts";
import { refusedUrl } from "../helpers/recording-server.ts";
import { encryptedSave, PLAYER_ID, testKeys } from "../helpers/saves.ts";
import { eventually, startServer, type RunningServer } from "../helpers/in-process.ts";

const UPLOAD_TOKEN = "upload-secret-0123456789";
const ADMIN_TOKEN = "admin-secret-0123456789abc";
const OTHER_PLAYER = "9876543210987654321";
const gameUrl = (player: string) => `https://production-game-api.sekai.colorfulpalette.org/api/user/${player}/mysekai?isForceAllReloadOnlyMysekai=False`;

const { pair, env } = testKeys();
let open: RunningServer;
let guarded: RunningServer;
beforeAll(async () => {
  [open, guarded] = await Promise.all([
    startServer({ env: { ...env, NOTIFY_DEFAULT: "none", UPLOAD_TOKEN } }),
    startServer({ env: { ...env, NOTIFY_DEFAULT: "none", ADMIN_TOKEN } }),
  ]);
});
afterAll(async () => {
  for (const server of [open, guarded]) {
    await server.stop();
    server.cleanup();
  }
});

const tokenOf = setupTokenOf;
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function cli(server: RunningServer, ...args: string[]): string {
  const run = Bun.spawnSync([process.execPath, "src/cli.ts", ...args], {
    env: { PATH: process.env.PATH ?? "", DATA_DIR: server.dataDir, CONFIG_DIR: `${server.dataDir}/config`, PUBLIC_BASE_URL: server.url },
  });
  expect(run.exitCode).toBe(0);
  return run.stdout.toString();
}

async function archivedFor(server: RunningServer, body: Uint8Array) {
  const save = await reads(server).saveBySha(sha(body));
  expect(save).toBeDefined();
  await jobReaches(server, save!.id, "done", 20_000, `save ${save!.id} done`);
  return (await reads(server).archive(save!.id))!;
}

describe("module and script URLs", () => {
  test("a wrong, malformed or unknown token gets 404; the right one serves every app's module with no caching", async () => {
    const token = await tokenOf(open);
    expect(token.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits in base64url
    const wrong = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const bad of [wrong, "short", `${token}x`]) {
      const answer = await fetch(`${open.url}/setup/${bad}/jp/surge.sgmodule`);
      expect(answer.status).toBe(404);
      expect(await answer.text()).not.toContain(token);
    }
    for (const [app, format] of Object.entries(MODULE_FORMATS)) {
      for (const full of [false, true]) {
        const answer = await fetch(`${open.url}/setup/${token}/en/${app}${full ? "-full" : ""}.${format.extension}`);
        expect(answer.status).toBe(200);
        expect(answer.headers.get("cache-control")).toBe("no-store");
        expect(answer.headers.get("content-type")).toBe("text/plain; charset=utf-8");
        // No ?lang= (an install from before it): the region's language, carried on to the script.
        const scriptUrl = `${open.url}/setup/${token}/en/${app}.js?lang=en`;
        expect(await answer.text()).toBe(format.generate("en", { scriptUrl, forceFullPayload: full, locale: "en" }));
      }
    }
    expect((await fetch(`${open.url}/setup/${token}/xx/surge.sgmodule`)).status).toBe(404);
    expect((await fetch(`${open.url}/setup/${token}/jp/surge.conf`)).status).toBe(404);
  });

  test("the scripts bake in the server URL and UPLOAD_TOKEN", async () => {
    const token = await tokenOf(open);
    const surge = await fetch(`${open.url}/setup/${token}/kr/surge.js`);
    expect(surge.headers.get("content-type")).toBe("application/javascript; charset=utf-8");
    expect(await surge.text()).toBe(httpClientUploadScript({ serverUrl: open.url, uploadToken: UPLOAD_TOKEN, locale: "ko" }));
    const qx = await (await fetch(`${open.url}/setup/${token}/kr/quantumultx.js?lang=en`)).text();
    expect(qx).toBe(quantumultXUploadScript({ serverUrl: open.url, uploadToken: UPLOAD_TOKEN, locale: "en" }));
  });

  test("a module and its script name themselves in the language of the page they came from", async () => {
    const token = await tokenOf(open);
    const module = await (await fetch(`${open.url}/setup/${token}/jp/shadowrocket.sgmodule?lang=zh-Hans`)).text();
    expect(module).toStartWith("#!name=MySekai 抓包上传（JP）\n#!desc=把 MySekai 存档");
    expect(module).toContain(`script-path=${open.url}/setup/${token}/jp/shadowrocket.js?lang=zh-Hans`);
    const script = await (await fetch(`${open.url}/setup/${token}/jp/shadowrocket.js?lang=zh-Hans`)).text();
    expect(script).toContain('"emptyBody":"跳过：内容为空"');
    expect(script).not.toContain("skipped");
  });

  test("what the served script logs on the phone, for an answer and for a failure, is in the page's language", async () => {
    for (const [app, lang] of [["shadowrocket", "zh-Hans"], ["quantumultx", "zh-Hant"], ["loon", "ja"], ["stash", "ko"]] as const) {
      const script = await (await fetch(`${open.url}/setup/${await tokenOf(open)}/cn/${app}.js?lang=${lang}`)).text();
      const answered = runInApp(app, script, { url: gameUrl(PLAYER_ID) }, encryptedSave(pair));
      expect((await answered.upload).status).toBe(200);
      await eventually(() => answered.logs.length > 0, 10_000, `${app} logged its answer`);
      // Nothing listens there: the upload fails the way a phone off the server's network does.
      const unreachable = script.replace(/var UPLOAD_URL = "[^"]*";/, `var UPLOAD_URL = "${await refusedUrl()}/uploadSaveData";`);
      const failed = runInApp(app, unreachable, { url: gameUrl(PLAYER_ID) }, encryptedSave(pair));
      await eventually(() => failed.logs.length > 0, 10_000, `${app} logged its failure`);
      const said = { zh: { answered: "服务器返回 200", failed: "失败：" }, "zh-Hant": { answered: "伺服器回應 200", failed: "失敗：" }, ja: { answered: "サーバーの応答 200", failed: "失敗：" }, ko: { answered: "서버 응답 200", failed: "실패: " } }[lang === "zh-Hans" ? "zh" : lang];
      expect({ app, answered: answered.logs, failed: failed.logs.map((line) => line.replace(/cap-\S+/, "cap-…").slice(0, 40)) }).toEqual({
        app,
        answered: [expect.stringMatching(new RegExp(`^\\[mysekai-capture\\] [^A-Za-z]+ cap-\\S+ ${said.answered}$`))],
        failed: [expect.stringContaining(said.failed)],
      });
    }
  });

  for (const app of ["loon", "quantumultx"] as const) {
    test(`${app}: the served script, run in the app imitation, gets a save archived`, async () => {
      const script = await (await fetch(`${open.url}/setup/${await tokenOf(open)}/jp/${app}.js`)).text();
      const body = encryptedSave(pair);
      const run = runInApp(app, script, { url: gameUrl(PLAYER_ID) }, body);
      expect(run.doneCalls).toEqual([{}]);
      const posted = await run.upload;
      expect({ status: posted.status, token: posted.headers["X-Upload-Token"] }).toEqual({ status: 200, token: UPLOAD_TOKEN });
      expect((await archivedFor(open, body)).player_id).toBe(PLAYER_ID);
    });
  }

  test("rotation (CLI, then the page's button) makes the old URLs 404 and the new ones work", async () => {
    const first = await tokenOf(open);
    expect(cli(open, "setup", "rotate")).toContain(`${open.url}/setup`);
    const second = await tokenOf(open);
    expect(second).not.toBe(first);
    expect((await fetch(`${open.url}/setup/${first}/jp/stash.stoverride`)).status).toBe(404);
    expect((await fetch(`${open.url}/setup/${second}/jp/stash.stoverride`)).status).toBe(200);

    const crossSite = await fetch(`${open.url}/setup/rotate`, { method: "POST", headers: { "sec-fetch-site": "cross-site" }, redirect: "manual" });
    expect(crossSite.status).toBe(403);
    expect(await tokenOf(open)).toBe(second);
    const rotated = await fetch(`${open.url}/setup/rotate`, { method: "POST", headers: { "sec-fetch-site": "same-origin" }, redirect: "manual" });
    expect(rotated.status).toBe(303);
    expect(await tokenOf(open)).not.toBe(second);
    expect((await fetch(`${open.url}/setup/${second}/jp/stash.js`)).status).toBe(404);
  });
});

describe("/setup behind the owner's rules", () => {
  test("loopback without ADMIN_TOKEN sees the links; a forwarded request does not", async () => {
    const page = await fetch(`${open.url}/setup?region=tw&app=loon`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const moduleUrl = `${open.url}/setup/${await tokenOf(open)}/tw/loon.plugin`;
    expect(html).toContain(moduleUrl);
    expect(html).toContain(`loon://import?plugin=${encodeURIComponent(moduleUrl)}`);
    expect(html).toContain("<svg");
    const forwarded = await fetch(`${open.url}/setup`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(forwarded.status).toBe(403);
    expect(await forwarded.text()).not.toContain(await tokenOf(open));
  });

  test("with ADMIN_TOKEN: no or a wrong token never shows the setup token; the right bearer does", async () => {
    const token = await tokenOf(guarded);
    for (const headers of [{}, { authorization: "Bearer wrong-token-0123456789" }, { accept: "text/html" }] as Record<string, string>[]) {
      const answer = await fetch(`${guarded.url}/setup`, { headers });
      expect(answer.status).toBe(401);
      expect(await answer.text()).not.toContain(token);
    }
    const page = await fetch(`${guarded.url}/setup`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(new RegExp(`/setup/${token}/[a-z]{2}/surge\\.sgmodule`));
  });
});

describe("a hub player's link", () => {
  test("uploads through it only for its own player; its page shows only that player's maps", async () => {
    const added = cli(open, "players", "add", PLAYER_ID, "--name", "Mizuki", "--route", "tg");
    const token = /\/p\/([A-Za-z0-9_-]+)/.exec(added)![1]!;
    expect(added).toContain(JSON.stringify({ [PLAYER_ID]: "tg" }));
    const root = `${open.url}/p/${token}`;
    expect(await (await fetch(`${open.url}/setup`)).text()).toContain(`${open.url}/p/${token}`);

    // The player's script posts to its link, without UPLOAD_TOKEN.
    const script = await (await fetch(`${root}/en/surge.js`)).text();
    expect(script).not.toContain(UPLOAD_TOKEN);
    const own = encryptedSave(pair);
    const ownRun = await runInApp("surge", script, { url: gameUrl(PLAYER_ID) }, own).upload;
    expect(ownRun.status).toBe(200);
    expect(ownRun.url).toBe(`${root}/uploadSaveData`);
    const ownArchive = await archivedFor(open, own);

    const other = encryptedSave(pair);
    const otherRun = await runInApp("surge", script, { url: gameUrl(OTHER_PLAYER) }, other).upload;
    expect(otherRun.status).toBe(403);
    expect(otherRun.text).toContain("its own player only");
    expect(await reads(open).saveBySha(sha(other))).toBeUndefined();
    const noUrl = await fetch(`${root}/uploadSaveData`, { method: "POST", headers: { "X-Upload-Id": "p-no-url", "X-Chunk-Index": "0", "X-Total-Chunks": "1" }, body: other });
    expect(noUrl.status).toBe(403);

    // Another player's save, uploaded the ordinary way, stays off this player's page.
    const headers = { "X-Upload-Id": "p-other", "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": gameUrl(OTHER_PLAYER), "X-Upload-Token": UPLOAD_TOKEN };
    expect((await fetch(`${open.url}/uploadSaveData`, { method: "POST", headers, body: other })).status).toBe(200);
    const otherArchive = await archivedFor(open, other);
    const page = await fetch(root);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Mizuki");
    expect(html).toContain(`/maps/${ownArchive.token}/`);
    expect(html).not.toContain(otherArchive.token);
    expect(html).not.toContain(OTHER_PLAYER);
    expect(html).toContain(`${root}/jp/surge.sgmodule`);

    // A new link for the same player retires the old one.
    cli(open, "players", "add", PLAYER_ID);
    expect((await fetch(root)).status).toBe(404);
    expect((await fetch(`${root}/en/surge.js`)).status).toBe(404);
    expect((await runInApp("surge", script, { url: gameUrl(PLAYER_ID) }, encryptedSave(pair)).upload).status).toBe(404);
  });
});
