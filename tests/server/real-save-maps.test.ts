/**
 * The real CN save (tests/fixtures/real) sent as a capture tool sends it: accepted under the save limits, every
 * map archived at the maps' width, totals as in the data, the rare find named; MAP_COMMON_LABELS=all draws more.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REGION_HOSTS } from "../../src/capture/regions.ts";
import { MAP_MAX_WIDTH_PX } from "../../src/maps/limits.ts";
import type { SummaryJson } from "../../src/maps/summary.ts";
import { eventually, serversForThisFile, type RunningServer } from "../helpers/in-process.ts";
import { encryptRaw, testKeys } from "../helpers/saves.ts";
import { reads } from "../helpers/store-reads.ts";

const REAL = JSON.parse(readFileSync(join(import.meta.dir, "../fixtures/real/cn-2026-03-23.json"), "utf8")) as {
  updatedResources: { userMysekaiHarvestMaps: { mysekaiSiteId: number; userMysekaiSiteHarvestResourceDrops: { quantity: number }[] }[] };
};
const PLAYER = "7000000000000000001";
const start = serversForThisFile({ NOTIFY_DEFAULT: "none" });

/** Uploads the real save and returns its archive folder once written. */
async function archiveOfRealSave(server: RunningServer, pair: ReturnType<typeof testKeys>["pair"]): Promise<string> {
  const response = await fetch(`${server.url}/uploadSaveData`, {
    method: "POST",
    body: encryptRaw(pair, REAL),
    headers: {
      "X-Upload-Id": "real",
      "X-Chunk-Index": "0",
      "X-Total-Chunks": "1",
      "X-Original-Url": `https://${REGION_HOSTS.cn[0]}/api/user/${PLAYER}/mysekai?isForceAllReloadOnlyMysekai=True`,
    },
  });
  expect(response.status).toBe(200);
  const saveId = (await reads(server).saveOfUpload("real"))!;
  const archive = await eventually(() => reads(server).archive(saveId), 60_000, "real save archived");
  return join(server.dataDir, "archive", archive.rel_path);
}

const pngWidth = (png: Buffer) => png.readUInt32BE(16);

test("the real save is archived whole: four site maps and the overview at the maps' width, totals as in the data, its rare finds named", async () => {
  const { pair, env } = testKeys();
  const folder = await archiveOfRealSave(await start(env), pair);
  for (const name of ["site_5.png", "site_6.png", "site_7.png", "site_8.png", "overview.png"]) {
    expect({ name, width: pngWidth(readFileSync(join(folder, name))) }).toEqual({ name, width: MAP_MAX_WIDTH_PX });
  }
  const summary = JSON.parse(readFileSync(join(folder, "summary.json"), "utf8")) as SummaryJson;
  const drawn = summary.sites.map((s) => ({ site: s.siteId, drops: s.resources.reduce((n, r) => n + r.total, 0) }));
  const inData = REAL.updatedResources.userMysekaiHarvestMaps.map((m) => ({ site: m.mysekaiSiteId, drops: m.userMysekaiSiteHarvestResourceDrops.reduce((n, d) => n + d.quantity, 0) }));
  expect(drawn).toEqual(inData.sort((a, b) => a.site - b.site));
  expect(drawn.map((d) => d.drops)).toEqual([190, 169, 230, 106]);
  // Material 93 is rare as lunabot ranks it (the catalogue's tiers), so site 6 holds two finds.
  expect(summary.rareFinds.map((r) => [r.name, r.sites])).toEqual([["月光石", [6]], ["「世界」晶粒", [6]]]);
  expect(readFileSync(join(folder, "rare_resources.txt"), "utf8")).toContain("月光石");
}, 90_000);

test("MAP_COMMON_LABELS=all labels every drop again: the densest site's map carries far more text", async () => {
  const { pair, env } = testKeys();
  const quiet = readFileSync(join(await archiveOfRealSave(await start(env), pair), "site_7.png"));
  const labelled = readFileSync(join(await archiveOfRealSave(await start({ ...env, MAP_COMMON_LABELS: "all" }), pair), "site_7.png"));
  // 64 label boxes of text against none: the PNG grows by their pixels.
  expect(labelled.length).toBeGreaterThan(quiet.length * 1.2);
}, 120_000);
