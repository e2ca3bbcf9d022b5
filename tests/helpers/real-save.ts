/**
 * The real CN save (tests/fixtures/real/cn-2026-03-23.json) as the game sent it (the object form) and rewritten
 * into the positional form of CN client 6.4.0 (src/save/positional.ts): every harvest map, harvest point and drop
 * an array by position. `groupIds: "null"` writes the trailing nullable group id as an explicit null (what a 6.4.0
 * client sends); `"absent"` leaves it out (the nullable tail missing). Each call returns a fresh copy.
 * `partyFindsSave` edits a copy the way issue 44 tries it: a party-limited 2026 material, an unknown id, an unknown type.
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

/** `from`: a copy of the real save, possibly edited (default the real save as sent). */
export function positionalRealSave({ groupIds = "null", from = realSave() }: { groupIds?: "null" | "absent"; from?: Row } = {}): Row {
  const save = from;
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

/** The party spawn group no catalogue party knows (a 2026 party after the catalogue's master data), and a known one (JP's miku_2026). */
export const UNKNOWN_PARTY_GROUP = 2630;
export const MIKU_2026_GROUP = 2621;

/**
 * The real save with, on site 6 (every drop on it lies on a harvest point): its first drop made material 297 of
 * spawn group 2630 (and that drop's harvest point given the group), its second an unknown mysekai_material 150, its
 * third a drop of the unknown type mysekai_blueprint (id 3), its fourth a miku_2026 dew (material 194) of group 2621.
 */
export function partyFindsSave(): Row {
  const save = realSave();
  const site = harvestMapsOf(save).find((map) => map.mysekaiSiteId === 6)!;
  const drops = site.userMysekaiSiteHarvestResourceDrops as Row[];
  const group = "mysekaiSiteHarvestSpawnLimitedRelationGroupId";
  Object.assign(drops[0]!, { resourceType: "mysekai_material", resourceId: 297, [group]: UNKNOWN_PARTY_GROUP });
  Object.assign(drops[1]!, { resourceType: "mysekai_material", resourceId: 150 });
  Object.assign(drops[2]!, { resourceType: "mysekai_blueprint", resourceId: 3 });
  Object.assign(drops[3]!, { resourceType: "material", resourceId: 194, [group]: MIKU_2026_GROUP });
  const fixture = (site.userMysekaiSiteHarvestFixtures as Row[]).find((f) => f.positionX === drops[0]!.positionX && f.positionZ === drops[0]!.positionZ)!;
  fixture[group] = UNKNOWN_PARTY_GROUP;
  for (const d of drops.slice(0, 4)) d.mysekaiSiteHarvestResourceDropStatus = "before_drop";
  return save;
}
