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
  };
}

export function material(id: number, x: number, z: number, quantity = 1, harvested = false): ResourceDrop {
  return drop("mysekai_material", id, x, z, quantity, harvested);
}

export function fixture(fixtureId: number, positionX: number, positionZ: number, harvested = false): HarvestFixture {
  return { fixtureId, positionX, positionZ, hp: harvested ? 0 : 90, harvested };
}

export function site(siteId: number, drops: ResourceDrop[], fixtures: HarvestFixture[] = []): SiteHarvest {
  return { siteId, fixtures, drops: drops.map((d, i) => ({ ...d, seq: i + 1 })) };
}

export function save(sites: SiteHarvest[], ownedMusicRecordIds: number[] = []): MySekaiSave {
  return { now: Date.UTC(2025, 2, 1, 0, 30), sites, hasHarvestMaps: true, ownedMusicRecordIds, weather: [] };
}
