/** Small typed MySekaiSave builders for the maps tests (realistic saves come from src/samples). */
import type { HarvestFixture, MySekaiSave, ResourceDrop, SiteHarvest } from "../../src/save/model.ts";

export function drop(
  resourceType: string,
  resourceId: number,
  positionX: number,
  positionZ: number,
  quantity = 1,
  harvested = false,
): ResourceDrop {
  return {
    resourceType,
    resourceId,
    positionX,
    positionZ,
    quantity,
    seq: 0,
    status: harvested ? "after_drop" : "before_drop",
    harvested,
    spawnGroup: null,
  };
}

export function material(id: number, x: number, z: number, quantity = 1, harvested = false): ResourceDrop {
  return drop("mysekai_material", id, x, z, quantity, harvested);
}

export function fixture(fixtureId: number, positionX: number, positionZ: number, harvested = false): HarvestFixture {
  return { fixtureId, positionX, positionZ, hp: harvested ? 0 : 90, harvested, spawnGroup: null };
}

export function site(siteId: number, drops: ResourceDrop[], fixtures: HarvestFixture[] = []): SiteHarvest {
  return { siteId, fixtures, drops: drops.map((d, i) => ({ ...d, seq: i + 1 })) };
}

export function save(sites: SiteHarvest[], ownedMusicRecordIds: number[] = []): MySekaiSave {
  return { now: Date.UTC(2025, 2, 1, 0, 30), sites, hasHarvestMaps: true, ownedMusicRecordIds, weather: [], isRefreshed: null, birthdayParties: [] };
}

/**
 * The worst save the caps allow (SAVE_LIMITS): every site full, every drop on its own spot and a resource of
 * its own (super-rare, new music records and unknown types at the longest allowed name), every harvest point used.
 */
export function saveAtCaps(limits: { sites: number; dropsPerSite: number; fixturesPerSite: number; stringChars: number }): MySekaiSave {
  const longType = `x${"w".repeat(limits.stringChars - 1)}`;
  const sites: SiteHarvest[] = [];
  for (let s = 0; s < limits.sites; s++) {
    const siteId = s < 4 ? 5 + s : 100 + s;
    const side = Math.ceil(Math.sqrt(limits.dropsPerSite));
    const drops: ResourceDrop[] = [];
    for (let i = 0; i < limits.dropsPerSite; i++) {
      const x = (i % side) - side / 2;
      const z = Math.floor(i / side) - side / 2;
      const kind = i % 3;
      drops.push(kind === 0 ? material(5, x, z, 9_999) : kind === 1 ? drop("mysekai_music_record", 10_000 + s * 10_000 + i, x, z) : drop(longType, 1_000_000 + i, x, z));
    }
    const fixtures = Array.from({ length: limits.fixturesPerSite }, (_, i) => fixture(1001, (i % side) - side / 2 + 0.5, Math.floor(i / side) - side / 2));
    sites.push(site(siteId, drops, fixtures));
  }
  return save(sites);
}
