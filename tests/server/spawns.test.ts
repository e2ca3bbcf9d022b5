/**
 * A month of rare spawns: real saves through the server, received at different times (set back in the store). The
 * spots gathered from the archives hold every rare and super-rare find of the last 30 days and none older; each
 * spot is marked once on its site's image; the images are served on both pages and drawn again after a new save.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { diskArchiveStore } from "../../src/archive/disk-store.ts";
import { openDatabase, type Db } from "../../src/db/sqlite/open.ts";
import type { SaveOutputs } from "../../src/maps/save-outputs.ts";
import { makeEncryptedSample } from "../../src/samples/index.ts";
import { SpawnMonths } from "../../src/spawns/month.ts";
import { buildSpawnSvg } from "../../src/spawns/svg.ts";
import { jobReaches, reads } from "../helpers/store-reads.ts";
import { writes } from "../helpers/store-writes.ts";
import { serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { ownerCliLastLine } from "../helpers/owner-cli.ts";
import { PLAYER_ID, testKeys, uploadSave } from "../helpers/saves.ts";
import { sqliteSpawnReads } from "../../src/db/read-models/sqlite.ts";

const DAY = 24 * 60 * 60 * 1000;
const { pair, env: keyEnv } = testKeys();
const start = serversForThisFile({ ...keyEnv, NOTIFY_DEFAULT: "none", MAP_LOCALE: "en" });
let server: RunningServer;
let db: Db;
const ids: Record<"recent" | "tenDays" | "twentyNine" | "old", number> = {} as never;

async function archived(seed: number): Promise<number> {
  const uploadId = crypto.randomUUID();
  expect((await uploadSave(server.url, makeEncryptedSample(pair, { seed, now: Date.now(), rareEverywhere: true }), uploadId)).status).toBe(200);
  const id = (await reads(server).saveOfUpload(uploadId))!;
  await jobReaches(server, id, "done", 30_000, `save ${id} done`);
  return id;
}
/** Each save's stored outputs and when it was received, read once it is backdated. */
const stored = {} as Record<keyof typeof ids, { outputs: SaveOutputs; receivedAt: number }>;

beforeAll(async () => {
  server = await start();
  const ages = { recent: 0, tenDays: 10 * DAY, twentyNine: 29 * DAY, old: 31 * DAY };
  let seed = 61;
  for (const age of Object.keys(ages) as (keyof typeof ages)[]) ids[age] = await archived(seed++);
  const now = Date.now();
  for (const age of Object.keys(ages) as (keyof typeof ages)[]) {
    await writes(server).receivedAt(ids[age], now - ages[age] - 60_000);
    stored[age] = { outputs: (await reads(server).outputs<SaveOutputs>(ids[age]))!, receivedAt: (await reads(server).saveRow(ids[age]))!.received_at };
  }
  db = openDatabase(server.dbPath);
}, 90_000);
afterAll(() => db?.$client.close());

const months = () => new SpawnMonths({ reads: sqliteSpawnReads(db), archive: diskArchiveStore(join(server.dataDir, "archive")), maps: { locale: "en", timeZone: "UTC" } });

describe("a month of rare spawns", () => {
  test("every rare and super-rare find of 30 days, at its spot and date, and none older", async () => {
    const spots = await months().spots(PLAYER_ID);
    const found = [...spots.values()].flat().flatMap((spot) => spot.finds.map((f) => `${spot.siteId} ${spot.x} ${spot.z} ${f.key} ${f.quantity} ${f.at}`));
    const expected = (["recent", "tenDays", "twentyNine"] as const).flatMap((age) =>
      stored[age].outputs.rareFinds.flatMap((find) => find.positions.map((p) => `${p.siteId} ${p.x} ${p.z} ${find.resource.key} ${p.quantity} ${stored[age].receivedAt}`)),
    );
    expect(expected.length).toBeGreaterThan(20);
    expect(found.sort()).toEqual(expected.sort());
    expect(found.some((f) => f.endsWith(` ${stored.old.receivedAt}`))).toBe(false);
    for (const [siteId, siteSpots] of spots) {
      const svg = buildSpawnSvg(siteId, siteSpots, { locale: "en", siteName: "s", subtitle: "t", date: (at) => new Date(at).toISOString().slice(5, 10) });
      expect(svg.match(/<circle [^>]*stroke-width="4"/g)?.length).toBe(siteSpots.length);
    }
  });

  test("served on the owner's page and the player's, a PNG per site with finds; drawn again after the next save", async () => {
    const path = /\/p\/[A-Za-z0-9_-]+/.exec(await ownerCliLastLine(server, "players", "add", PLAYER_ID))![0];
    const ownerPage = await (await fetch(`${server.url}/players/${PLAYER_ID}`)).text();
    expect(ownerPage).toContain(`/players/${PLAYER_ID}/spawns/site_5.png`);
    // The player's images have a key of their own: their addresses carry nothing of the page's token.
    const playerPage = await (await fetch(`${server.url}${path}`)).text();
    const images = new RegExp(`/spawns/${PLAYER_ID}/[0-9a-f]{32}`).exec(playerPage)![0];
    expect(playerPage).toContain(`${images}/site_5.png`);
    expect(playerPage).not.toContain(`${path}/spawns/`);
    expect(images).not.toContain(path.slice(3));
    expect((await fetch(`${server.url}${path}/spawns/site_5.png`)).status).toBe(404);
    const first = await fetch(`${server.url}${images}/site_5.png`);
    expect([first.status, first.headers.get("content-type")]).toEqual([200, "image/png"]);
    const bytes = new Uint8Array(await first.arrayBuffer());
    mkdirSync("/tmp/shots", { recursive: true });
    writeFileSync("/tmp/shots/polish-spawns.png", bytes);
    expect((await fetch(`${server.url}/players/${PLAYER_ID}/spawns/site_5.png`)).status).toBe(200);
    for (const wrong of ["site_99.png", "site_5.svg", "..%2Fsummary.json"]) expect((await fetch(`${server.url}${images}/${wrong}`)).status).toBe(404);
    expect((await fetch(`${server.url}/spawns/${PLAYER_ID}/${"0".repeat(32)}/site_5.png`)).status).toBe(404);
    await archived(71);
    const again = new Uint8Array(await (await fetch(`${server.url}${images}/site_5.png`)).arrayBuffer());
    expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(false);
  });
});
