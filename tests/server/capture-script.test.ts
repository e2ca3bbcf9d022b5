/**
 * The served upload script, run in an imitation of each proxy app's script API against the real server:
 * the game gets `$done({})` at once, and the save ends archived (also with UPLOAD_TOKEN set).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import type { ProxyApp } from "../../src/capture/modules.ts";
import { httpClientUploadScript, quantumultXUploadScript, type UploadScriptOptions } from "../../src/capture/upload-script.ts";
import { UPLOAD_ID_PATTERN } from "../../src/contract.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { runInApp } from "../helpers/proxy-app-harness.ts";
import { startServer, type RunningServer } from "../helpers/in-process.ts";
import { encryptedSave, PLAYER_ID, testKeys } from "../helpers/saves.ts";

const APPS: ProxyApp[] = ["surge", "shadowrocket", "loon", "stash", "quantumultx"];
const GAME_URL = `https://production-game-api.sekai.colorfulpalette.org/api/user/${PLAYER_ID}/mysekai?isForceAllReloadOnlyMysekai=True`;
const TOKEN = "tok-Q9z\"'\\x";

const { pair, env } = testKeys();
let server: RunningServer;
let guarded: RunningServer;
beforeAll(async () => {
  [server, guarded] = await Promise.all([startServer({ env }), startServer({ env: { ...env, UPLOAD_TOKEN: TOKEN } })]);
});
afterAll(async () => {
  for (const s of [server, guarded]) {
    await s.stop();
    s.cleanup();
  }
});

const scriptFor = (app: ProxyApp, options: UploadScriptOptions) =>
  app === "quantumultx" ? quantumultXUploadScript(options) : httpClientUploadScript(options);

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function archivedSave(target: RunningServer, body: Uint8Array) {
  const save = await reads(target).saveBySha(sha(body));
  expect(save?.player_id).toBe(PLAYER_ID);
  await jobReaches(target, save!.id, "done", 20_000, `save ${save!.id} done`);
  return reads(target).archive(save!.id);
}

describe("the upload script in each app", () => {
  for (const app of APPS) {
    test(`${app}: $done({}) at once, the save uploaded in one chunk and archived`, async () => {
      const body = encryptedSave(pair);
      const untouched = body.slice();
      const run = runInApp(app, scriptFor(app, { serverUrl: `${server.url}/` }), { url: GAME_URL }, body);

      expect(run.doneBeforeReturn).toBe(1);
      expect(run.doneCalls).toEqual([{}]);
      expect(run.answeredBeforeReturn).toBe(false);
      const posted = await run.upload;
      expect({ status: posted.status, text: posted.text }).toEqual({ status: 200, text: "OK" });
      expect(posted.url).toBe(`${server.url}/uploadSaveData`);
      expect(posted.headers["X-Upload-Id"]).toMatch(UPLOAD_ID_PATTERN);
      expect(posted.headers).toMatchObject({ "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": GAME_URL });
      expect(posted.headers["X-Upload-Token"]).toBeUndefined();
      expect(posted.timeout).toBe(app === "quantumultx" ? undefined : app === "loon" ? 20_000 : 20);
      expect(run.doneCalls).toHaveLength(1);
      expect(Buffer.compare(body, untouched)).toBe(0);

      expect(await archivedSave(server, body)).toMatchObject({ player_id: PLAYER_ID });
    });
  }

  test("every run posts under a fresh upload id", async () => {
    const script = httpClientUploadScript({ serverUrl: server.url });
    const ids = await Promise.all(
      [0, 1, 2].map(async () => (await runInApp("surge", script, { url: GAME_URL }, encryptedSave(pair)).upload).headers["X-Upload-Id"]),
    );
    expect(new Set(ids).size).toBe(3);
  });
});

describe("with UPLOAD_TOKEN", () => {
  for (const app of ["surge", "quantumultx"] as const) {
    test(`${app}: the baked-in token is sent and the save archived`, async () => {
      const body = encryptedSave(pair);
      const run = runInApp(app, scriptFor(app, { serverUrl: guarded.url, uploadToken: TOKEN }), { url: GAME_URL }, body);
      const posted = await run.upload;
      expect(posted.headers["X-Upload-Token"]).toBe(TOKEN);
      expect(posted.status).toBe(200);
      expect(await archivedSave(guarded, body)).toMatchObject({ player_id: PLAYER_ID });
      expect(run.logs.join("\n")).not.toContain(TOKEN);
    });
  }

  test("a script without the token is refused and stores nothing", async () => {
    const body = encryptedSave(pair);
    const posted = await runInApp("stash", httpClientUploadScript({ serverUrl: guarded.url }), { url: GAME_URL }, body).upload;
    expect(posted.status).toBe(401);
    expect(await reads(guarded).saveBySha(sha(body))).toBeUndefined();
  });
});

describe("bodies the script leaves alone", () => {
  test("an empty body or one over the upload limit: $done({}) and no upload", async () => {
    for (const body of [new Uint8Array(0), new Uint8Array(1024 * 1024 + 1)]) {
      for (const app of ["loon", "quantumultx"] as const) {
        const run = runInApp(app, scriptFor(app, { serverUrl: server.url }), { url: GAME_URL }, body);
        expect(run.doneCalls).toEqual([{}]);
        await expect(run.upload).rejects.toThrow("posted nothing");
        expect(run.logs.join("\n")).toMatch(/skipped/);
      }
    }
  });
});
