/**
 * A birthday party's delivery end to end: captured by the generated module's rule of its own and the served
 * upload script, archived apart from the player's MySekai save; a refresh whose maps hold site 9 draws site 9 with
 * its name from the catalogue, is pushed as a party refresh, served at mysekai_birthday_party (API token, and the
 * public read once the player opted in), and its maps are in place in what /api/{region}/user/{uid}/mysekai
 * answers. A report holding both keeps the save. (Refreshes and records on both stores: party-refresh.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MODULE_FORMATS } from "../../src/capture/modules.ts";
import { httpClientUploadScript } from "../../src/capture/upload-script.ts";
import { siteName } from "../../src/maps/catalog.ts";
import { birthdayDelivery, DELIVERY_URL, PARTY_SITE } from "../helpers/birthday-party.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { jsonBytes, REPORT_PATH } from "../helpers/har.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCli, ownerCliLastLine } from "../helpers/owner-cli.ts";
import { runInApp } from "../helpers/proxy-app-harness.ts";
import { REAL_SAVE_PLAYER, REAL_SAVE_URL, realSave, uploadRealForm } from "../helpers/real-save.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptRaw, testKeys } from "../helpers/saves.ts";

const start = serversForThisFile();
let hooks: RecordingServer;
beforeAll(async () => {
  hooks = await startRecordingServer({ defaultResponse: { status: 200, body: { ok: true } } });
});
afterAll(() => hooks.stop());

const done = (server: RunningServer, saveId: number) => jobReaches(server, saveId, "done", 60_000, `save ${saveId} done`);
const saveBySha = async (server: RunningServer, bytes: Uint8Array) => (await reads(server).saveBySha(new Bun.CryptoHasher("sha256").update(bytes).digest("hex")))!;

describe("a birthday party's delivery", () => {
  test("captured, archived apart, site 9 drawn with its name when its maps hold it, pushed as a party refresh, served on its own route and in /mysekai", async () => {
    const { pair, env } = testKeys();
    const server = await start({ ...env, NOTIFY_DEFAULT: "webhook", WEBHOOK_URL: `${hooks.url}/party` });
    const pushes = () => hooks.requests.filter((r) => r.path === "/party").map((r) => r.json as { summary: { dataType: string; sites: { siteId: number; name: string }[] } });

    expect((await ownerCli(server, "data-webhooks", "add", `${hooks.url}/data/{data_type}/{user_id}`)).code).toBe(0);
    expect((await uploadRealForm(server.url, encryptRaw(pair, realSave()), "save")).status).toBe(200);
    const saveId = (await reads(server).saveOfUpload("save"))!;
    await done(server, saveId);
    const token = await ownerCliLastLine(server, "api-tokens", "add", "bot");
    const read = (path: string, bearer = token) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
    const before = await read(`/api/cn/user/${REAL_SAVE_PLAYER}/mysekai`);
    const none = await read(`/api/cn/user/${REAL_SAVE_PLAYER}/mysekai_birthday_party`);
    expect([none.status, await none.json()]).toEqual([404, { detail: { local_err: `no MySekai birthday party data of ${REAL_SAVE_PLAYER} in cn on this server` } }]);

    // The CN Surge module's own rule matches the delivery; its script uploads the body with the URL.
    const module = MODULE_FORMATS.surge.generate("cn", { scriptUrl: "https://maps.example.org/setup/s/capture.js" });
    const partyRule = /^mysekai-capture-birthday-party-cn = type=http-response,pattern=([^,]+),/m.exec(module)![1]!;
    expect(new RegExp(partyRule).test(DELIVERY_URL)).toBe(true);
    const body = encryptRaw(pair, birthdayDelivery({ partySite: true }));
    const run = runInApp("surge", httpClientUploadScript({ serverUrl: server.url }), { url: DELIVERY_URL }, body);
    expect((await run.upload).status).toBe(200);
    const party = await saveBySha(server, body);
    expect(party.data_type).toBe("mysekai_birthday_party");
    await done(server, party.id);

    // Drawn and archived with the site's name as the catalogue gives it.
    const { rel_path, files } = (await reads(server).archive(party.id))!;
    expect(files).toContain(`site_${PARTY_SITE}.png`);
    const archived = (name: string) => readFileSync(join(server.dataDir, "archive", rel_path, name), "utf8");
    const summary = JSON.parse(archived("summary.json"));
    expect(summary.dataType).toBe("mysekai_birthday_party");
    expect(summary.sites.map((s: { siteId: number; name: string }) => [s.siteId, s.name])).toEqual([[PARTY_SITE, siteName(PARTY_SITE, "zh-Hans")]]);
    expect(archived("rare_resources.txt").split("\n")[0]).toBe(`MySekai 生日派对刷新 · ${REAL_SAVE_PLAYER}`);

    // Pushed once, as a party refresh (the save's push before it was the save's).
    expect(pushes().map((p) => p.summary.dataType)).toEqual(["mysekai", "mysekai_birthday_party"]);
    // Bots are told which data type is new: each is read at its own route.
    await eventually(() => hooks.requests.filter((r) => r.path.startsWith("/data/")).length === 2, 20_000, "two data webhooks");
    expect(hooks.requests.filter((r) => r.path.startsWith("/data/")).map((r) => r.path)).toEqual([`/data/mysekai/${REAL_SAVE_PLAYER}`, `/data/mysekai_birthday_party/${REAL_SAVE_PLAYER}`]);

    // The save a bot reads holds the refresh's harvest maps (the largest hub writes them over the player's); the
    // delivery has its own route too.
    const after = await read(`/api/cn/user/${REAL_SAVE_PLAYER}/mysekai`);
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag")!);
    const maps = ((await after.json()) as { updatedResources: { userMysekaiHarvestMaps: { mysekaiSiteId: number }[] } }).updatedResources.userMysekaiHarvestMaps;
    expect(maps.map((m) => m.mysekaiSiteId)).toEqual([PARTY_SITE]);
    const served = (await (await read(`/api/cn/user/${REAL_SAVE_PLAYER}/mysekai_birthday_party`)).json()) as { updatedResources: { userMysekaiHarvestMaps: { mysekaiSiteId: number }[] }; upload_time: number };
    expect(served.updatedResources.userMysekaiHarvestMaps.map((m) => m.mysekaiSiteId)).toEqual([PARTY_SITE]);

    // The same privacy rules as the save: a token for other players and the public read before opt-in get 404.
    const other = await ownerCliLastLine(server, "api-tokens", "add", "other", "--players", "1234567");
    expect((await read(`/api/cn/user/${REAL_SAVE_PLAYER}/mysekai_birthday_party`, other)).status).toBe(404);
    expect((await fetch(`${server.url}/public/cn/mysekai_birthday_party/${REAL_SAVE_PLAYER}`)).status).toBe(404);
    expect((await ownerCli(server, "players", "public", REAL_SAVE_PLAYER, "on")).code).toBe(0);
    const open = await fetch(`${server.url}/public/cn/mysekai_birthday_party/${REAL_SAVE_PLAYER}?key=updatedResources`);
    expect(open.status).toBe(200);
    expect(((await open.json()) as { userMysekaiHarvestMaps: { mysekaiSiteId: number }[] }).userMysekaiHarvestMaps[0]!.mysekaiSiteId).toBe(PARTY_SITE);
    expect((await fetch(`${server.url}/public/cn/mysekai/${REAL_SAVE_PLAYER}?key=upload_time`)).status).toBe(200);

    expect(await (await fetch(`${server.url}/`)).text()).toContain("birthday party");
  }, 120_000);

  test("a report holding a delivery and the save keeps the save; a report of the delivery alone keeps it as a delivery", async () => {
    const { pair, env } = testKeys();
    const server = await start({ ...env, NOTIFY_DEFAULT: "none" });
    const delivery = encryptRaw(pair, birthdayDelivery({ partySite: true }));
    const save = encryptRaw(pair, realSave());
    const entry = (url: string, bytes: Uint8Array) => ({
      request: { method: "GET", url, headers: [] },
      response: { status: 200, content: { mimeType: "application/octet-stream", size: bytes.length, text: Buffer.from(bytes).toString("base64"), encoding: "base64" } },
    });
    const report = (...entries: unknown[]) => fetch(`${server.url}${REPORT_PATH}`, { method: "POST", body: jsonBytes({ log: { entries } }) as Uint8Array<ArrayBuffer>, headers: { "content-type": "application/json" } });
    expect((await report(entry(DELIVERY_URL, delivery), entry(REAL_SAVE_URL, save))).status).toBe(200);
    await eventually(async () => (await reads(server).saveCount()) === 1, 30_000, "the report's save");
    expect((await saveBySha(server, save)).data_type).toBe("mysekai");
    expect((await report(entry(DELIVERY_URL, delivery))).status).toBe(200);
    await eventually(async () => (await reads(server).saveCount()) === 2, 30_000, "the report's delivery");
    expect((await saveBySha(server, delivery)).data_type).toBe("mysekai_birthday_party");
  }, 90_000);
});
