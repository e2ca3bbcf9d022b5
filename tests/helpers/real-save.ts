/**
 * The real CN save (tests/fixtures/real/cn-2026-03-23.json) as the game sent it (the object form) and rewritten
 * into the positional form of CN client 6.4.0 (src/save/positional.ts): every harvest map, harvest point and drop
 * an array by position. `groupIds: "null"` writes the trailing nullable group id as an explicit null (what a 6.4.0
 * client sends); `"absent"` leaves it out (the nullable tail missing). Each call returns a fresh copy.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const REAL_SAVE_PLAYER = "7000000000000000001";
export const REAL_SAVE_URL = `https://mkcn-prod-public-60001-1.dailygn.com/api/user/${REAL_SAVE_PLAYER}/mysekai?isForceAllReloadOnlyMysekai=True`;
const text = readFileSync(join(import.meta.dir, "../fixtures/real/cn-2026-03-23.json"), "utf8");

type Row = Record<string, unknown>;

export function realSave(): Row {
  return JSON.parse(text) as Row;
}

export function harvestMapsOf(save: Row): Row[] {
  return (save.updatedResources as Row).userMysekaiHarvestMaps as Row[];
}

export function positionalRealSave({ groupIds = "null" }: { groupIds?: "null" | "absent" } = {}): Row {
  const save = realSave();
  const tail = (row: Row) => (groupIds === "null" ? [row.mysekaiSiteHarvestSpawnLimitedRelationGroupId ?? null] : []);
  (save.updatedResources as Row).userMysekaiHarvestMaps = harvestMapsOf(save).map((map) => [
    map.mysekaiSiteId,
    (map.userMysekaiSiteHarvestFixtures as Row[]).map((f) => [f.mysekaiSiteHarvestFixtureId, f.positionX, f.positionZ, f.hp, f.userMysekaiSiteHarvestFixtureStatus, ...tail(f)]),
    (map.userMysekaiSiteHarvestResourceDrops as Row[]).map((d) => [d.resourceType, d.resourceId, d.positionX, d.positionZ, d.hp, d.seq, d.mysekaiSiteHarvestResourceDropStatus, d.quantity, ...tail(d)]),
  ]);
  return save;
}

/** The object form a positional save is restored to: the real save, with the group ids written as null where it had none. */
export function restoredRealSave({ groupIds = "null" }: { groupIds?: "null" | "absent" } = {}): Row {
  const save = realSave();
  if (groupIds === "absent") return save;
  const key = "mysekaiSiteHarvestSpawnLimitedRelationGroupId";
  for (const map of harvestMapsOf(save)) {
    for (const list of ["userMysekaiSiteHarvestFixtures", "userMysekaiSiteHarvestResourceDrops"]) {
      for (const row of map[list] as Row[]) row[key] ??= null;
    }
  }
  return save;
}

export function uploadRealForm(baseUrl: string, body: Uint8Array, uploadId: string, url = REAL_SAVE_URL): Promise<Response> {
  return fetch(`${baseUrl}/uploadSaveData`, {
    method: "POST",
    body,
    headers: { "X-Upload-Id": uploadId, "X-Chunk-Index": "0", "X-Total-Chunks": "1", "X-Original-Url": url },
  });
}
