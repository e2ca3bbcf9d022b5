/**
 * Watch rules through the real server: the owner's `cli watch` (a name in any language, or type:id), push_map.json
 * route modes. A `watched` route is pushed only a refresh holding a watched resource, its first line naming the
 * find, its site and count, with that site's map alone; an `always` route gets every refresh as before; `off`
 * nothing. The matches show on the player's history.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeSampleMySekaiSave } from "../../src/samples/index.ts";
import type { MySekaiSave } from "../../src/save/index.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCli, ownerCliLastLine } from "../helpers/owner-cli.ts";
import { startRecordingServer, type RecordingServer } from "../helpers/recording-server.ts";
import { encryptRaw, rawSave, testKeys, uploadSave } from "../helpers/saves.ts";

const WATCHER = "1000000000000000001";
const ALWAYS = "1000000000000000002";
const MUTED = "1000000000000000003";
const MOONSTONE = "mysekai_material:33";
const { pair, env: keyEnv } = testKeys();
const configDir = mkdtempSync(join(tmpdir(), "watch-config-"));
writeFileSync(
  join(configDir, "push_map.json"),
  JSON.stringify({ [WATCHER]: { route: "webhook", mode: "watched" }, [ALWAYS]: "webhook", [MUTED]: [{ route: "webhook", mode: "off" }] }),
);
let api: RecordingServer;
let server: RunningServer;
const start = serversForThisFile({ ...keyEnv, CONFIG_DIR: configDir, NOTIFY_DEFAULT: "none", MAP_LOCALE: "en" });

interface Push {
  playerId: string;
  saveId: number;
  title: string;
  rareText: string;
  images: { name: string }[];
}
const pushes = () => api.requests.filter((r) => r.path === "/hook").map((r) => r.json as Push);

const CLOVER = "mysekai_material:20";
const watchedIds = [33, 20];

/** A sample refresh without moonstones or clovers, then `add` of them on the given sites. */
function refresh(seed: number, add: { id: number; siteId: number; count: number }[] = []): MySekaiSave {
  const typed = makeSampleMySekaiSave({ seed });
  for (const site of typed.sites) site.drops = site.drops.filter((d) => !(d.resourceType === "mysekai_material" && watchedIds.includes(d.resourceId)));
  for (const { id, siteId, count } of add) {
    const site = typed.sites.find((s) => s.siteId === siteId)!;
    for (let i = 0; i < count; i++) {
      site.drops.push({ resourceType: "mysekai_material", resourceId: id, positionX: 2 + i, positionZ: -3, quantity: 1, seq: 900 + i, status: "before_drop", harvested: false, spawnGroup: null });
    }
  }
  return typed;
}

async function archived(playerId: string, typed: MySekaiSave): Promise<number> {
  const uploadId = crypto.randomUUID();
  expect((await uploadSave(server.url, encryptRaw(pair, rawSave(typed)), uploadId, playerId)).status).toBe(200);
  const id = (await reads(server).saveOfUpload(uploadId))!;
  await jobReaches(server, id, "done", 30_000, `save ${id} done`);
  return id;
}

beforeAll(async () => {
  api = await startRecordingServer({ defaultResponse: { status: 200, body: { ok: true } } });
  server = await start({ WEBHOOK_URL: `${api.url}/hook` });
}, 60_000);
afterAll(async () => {
  await api.stop();
});

describe("cli watch", () => {
  test("adds by a name in any language or type:id, lists, removes; refuses what the catalogue lacks", async () => {
    expect(await ownerCliLastLine(server, "watch", "add", WATCHER, "月光石")).toContain(`watches Moonstone (${MOONSTONE})`);
    expect(await ownerCliLastLine(server, "watch", "add", "*", "four-leaf  CLOVER")).toContain("mysekai_material:20");
    expect(await ownerCliLastLine(server, "watch", "add", ALWAYS, "mysekai_material:12")).toContain("Diamond");
    const list = (await ownerCli(server, "watch", "list")).out;
    expect(list).toContain(`*\tmysekai_material:20\tFour-Leaf Clover`);
    expect(list).toContain(`${WATCHER}\t${MOONSTONE}\tMoonstone`);
    expect(await ownerCliLastLine(server, "watch", "remove", ALWAYS, "Diamond")).toContain("1 rule(s) removed");
    const unknown = await ownerCli(server, "watch", "add", WATCHER, "unobtainium");
    expect([unknown.code, unknown.err]).toEqual([1, expect.stringContaining('no catalogue resource is named "unobtainium"')]);
    const wrongId = await ownerCli(server, "watch", "add", "12ab", "Diamond");
    expect(wrongId.code).toBe(1);
    expect((await ownerCli(server, "watch", "list", WATCHER)).out.trim().split("\n")).toEqual([`${WATCHER}\t${MOONSTONE}\tMoonstone`]);
  });
});

describe("route modes", () => {
  const of = (playerId: string, saveId: number) => pushes().filter((p) => p.playerId === playerId && p.saveId === saveId);

  test("watched: nothing for a refresh without a watched resource; always: every refresh; off: nothing", async () => {
    const [quiet, always, muted] = await Promise.all([archived(WATCHER, refresh(11)), archived(ALWAYS, refresh(12)), archived(MUTED, refresh(13, [{ id: 33, siteId: 6, count: 2 }, { id: 20, siteId: 5, count: 1 }]))]);
    expect(of(WATCHER, quiet)).toEqual([]);
    expect(of(MUTED, muted)).toEqual([]);
    const [push] = of(ALWAYS, always);
    expect(push!.images.map((i) => i.name)).toEqual(["site_5.png", "site_6.png", "site_7.png", "site_8.png", "overview.png"]);
    expect(push!.title).toStartWith("MySekai rare resources");
  });

  test("watched: the find, its site and count first, then that site's map alone; the owner's * rules count too", async () => {
    const moon = await archived(WATCHER, refresh(14, [{ id: 33, siteId: 6, count: 3 }]));
    expect(of(WATCHER, moon).map((p) => [p.title, p.rareText, p.images.map((i) => i.name)])).toEqual([["Moonstone ×3 · Wisher's Cove", "", ["site_6.png"]]]);
    const both = await archived(WATCHER, refresh(15, [{ id: 20, siteId: 7, count: 2 }, { id: 33, siteId: 5, count: 1 }]));
    const [push] = of(WATCHER, both);
    expect([push!.title, push!.rareText]).toEqual(["Four-Leaf Clover ×2 · Colorful Canyon", "Moonstone ×1 · Fledgling Field"]);
    expect(push!.images.map((i) => i.name)).toEqual(["site_5.png", "site_7.png"]);
    const history = await (await fetch(`${server.url}/players/${WATCHER}`)).text();
    expect(history).toContain("◉ Moonstone ×3 · Wisher&#39;s Cove");
    expect(history).toContain("◉ Four-Leaf Clover ×2 · Colorful Canyon");
  });
});

describe("the player's own watch list", () => {
  test("a checkbox per rare and birthday resource; the form sets exactly what is ticked, same origin only", async () => {
    const path = /\/p\/[A-Za-z0-9_-]+/.exec(await ownerCliLastLine(server, "players", "add", ALWAYS))![0];
    await ownerCli(server, "watch", "add", ALWAYS, "Diamond", "Plain Note", "Wish Lumber");
    const html = await (await fetch(`${server.url}${path}`)).text();
    expect(/<input type="checkbox" name="w" value="mysekai_material:12" checked/.test(html)).toBe(true);
    expect(html).toContain('value="mysekai_material:67"'); // a birthday flower
    expect(html).toContain('value="material:174"'); // a festival dew
    expect(html).not.toContain('value="mysekai_material:1"'); // common wood is no checkbox
    const post = (body: string, headers: Record<string, string> = { origin: server.url }) =>
      fetch(`${server.url}${path}/watch`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body });
    expect((await post("w=mysekai_material%3A33", {})).status).toBe(403);
    expect((await post("w=mysekai_material%3A33", { origin: "https://evil.example" })).status).toBe(403);
    expect((await post("w=mysekai_material%3A1")).status).toBe(400);
    expect((await fetch(`${server.url}/p/${"x".repeat(43)}/watch`, { method: "POST", body: "" })).status).toBe(404);
    const saved = await post("w=mysekai_material%3A33&w=material%3A174");
    expect(saved.status).toBe(303);
    const rules = (await ownerCli(server, "watch", "list", ALWAYS)).out.trim().split("\n").map((line) => line.split("\t")[1]);
    // Diamond and Plain Note were unticked; common wood, which the form does not offer, stays.
    expect(rules.sort()).toEqual(["material:174", "mysekai_material:1", "mysekai_material:33"].sort());
  });
});
