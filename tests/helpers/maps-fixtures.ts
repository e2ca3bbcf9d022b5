/** Typed MySekaiSave builders for the maps tests, the render bench and the docs samples. */
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

/** Deterministic PRNG (mulberry32) so the "realistic" save is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Position ranges (positionX, positionZ) that land inside each site's cropped map. */
const SITE_RANGES: Record<number, { x: [number, number]; z: [number, number] }> = {
  5: { x: [-15, 12], z: [-16, 17] },
  6: { x: [-28, 27], z: [-19, 26] },
  7: { x: [-18, 19], z: [-26, 19] },
  8: { x: [-31, 21], z: [-27, 16] },
};

const KINDS = [
  { fixtureId: 1001, drops: [1, 2, 4], rareChance: { id: 5, p: 0.03 } },
  { fixtureId: 2001, drops: [6, 7, 8, 9, 10, 11], rareChance: { id: 12, p: 0.04 } },
  { fixtureId: 4001, drops: [21, 22, 23], rareChance: { id: 20, p: 0.04 } },
  { fixtureId: 5001, drops: [13, 14, 15, 16, 17, 18], rareChance: { id: 33, p: 0.06 } },
] as const;
const RARE_JUNK = [32, 34, 61, 64, 65, 66];

/** ~40 harvest points and ~80 drops per site on sites 5-8, a few rare ones, a music record and an item. */
export function realisticSave(seed = 7): MySekaiSave {
  const rand = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const sites: SiteHarvest[] = [];
  for (const siteId of [5, 6, 7, 8]) {
    const range = SITE_RANGES[siteId]!;
    const used = new Set<string>();
    const fixtures: HarvestFixture[] = [];
    const drops: ResourceDrop[] = [];
    while (fixtures.length < 40) {
      const x = Math.round(range.x[0] + rand() * (range.x[1] - range.x[0]));
      const z = Math.round(range.z[0] + rand() * (range.z[1] - range.z[0]));
      if (used.has(`${x},${z}`)) continue;
      used.add(`${x},${z}`);
      const kind = pick(KINDS);
      const harvested = rand() < 0.08;
      fixtures.push(fixture(kind.fixtureId, x, z, harvested));
      drops.push(material(pick(kind.drops), x, z, 1 + Math.floor(rand() * 3), harvested));
      const second = rand();
      if (second < kind.rareChance.p * 1.5) drops.push(material(kind.rareChance.id, x, z, 1, harvested));
      else if (second < 0.12) drops.push(material(pick(RARE_JUNK), x, z, 1, harvested));
      else drops.push(material(pick(kind.drops), x, z, 1 + Math.floor(rand() * 2), harvested));
    }
    const [first] = fixtures;
    if (siteId === 6 && first) drops.push(drop("mysekai_music_record", 412, first.positionX, first.positionZ));
    if (siteId === 8 && first) drops.push(material(24, first.positionX, first.positionZ));
    if (siteId === 5 && first) drops.push(drop("mysekai_item", 7, first.positionX, first.positionZ, 2));
    sites.push(site(siteId, drops, fixtures));
  }
  return save(sites, [1, 2, 3]);
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
