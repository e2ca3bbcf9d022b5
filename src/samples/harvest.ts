/**
 * Synthetic harvest maps: fixtures on distinct grid cells, drops stacked on the fixture that yields
 * them (as in real saves), some already harvested, and catalogue-real rare and super-rare resources.
 * Only catalogue ids are real; positions, counts and statuses are invented.
 */
import type { Random } from "./random.ts";

type Resource = readonly [resourceType: string, resourceId: number];

type Span = readonly [min: number, max: number];

interface SiteRecipe {
  /** Grid cells that land inside the site's drawn map (and within ±20, like real saves). */
  area: { x: Span; z: Span };
  fixtureIds: readonly number[];
  commons: readonly Resource[];
  supers: readonly Resource[];
}

const material = (id: number): Resource => ["mysekai_material", id];

const RARE: readonly Resource[] = [32, 33, 34, 61, 64, 65, 66].map(material);
const ITEM_7: Resource = ["mysekai_item", 7];
const SAPLING: Resource = ["mysekai_fixture", 121];

const SITE_RECIPES: Readonly<Record<number, SiteRecipe>> = {
  5: {
    area: { x: [-15, 12], z: [-16, 17] },
    fixtureIds: [1001, 1002, 2001, 2002, 4001, 4002, 4003, 5001, 112],
    commons: [1, 2, 6, 7, 13, 14, 15, 16, 17, 18, 19, 22].map(material),
    supers: [material(5), material(12), material(20), SAPLING],
  },
  6: {
    area: { x: [-20, 20], z: [-19, 20] },
    fixtureIds: [1001, 2001, 2003, 4004, 4005, 6001, 5002, 111],
    commons: [1, 6, 13, 14, 15, 16, 17, 18, 19].map(material),
    supers: [material(5), material(12)],
  },
  7: {
    area: { x: [-18, 19], z: [-20, 19] },
    fixtureIds: [1003, 2004, 4006, 4007, 4008, 4009, 7001, 112],
    commons: [1, 6, 21, 23].map(material),
    supers: [material(5), material(12), material(20), SAPLING],
  },
  8: {
    area: { x: [-20, 20], z: [-20, 16] },
    fixtureIds: [1004, 2005, 2006, 3001, 4010, 4011, 5003, 111],
    commons: [6, 7, 13, 14, 15, 16, 17, 18, 19].map(material),
    supers: [material(12), material(24)],
  },
};

const FALLBACK_RECIPE: SiteRecipe = {
  area: { x: [-20, 20], z: [-20, 20] },
  fixtureIds: [1001, 2001, 4001],
  commons: [1, 6].map(material),
  supers: [material(12)],
};

/** A music record id that appears as a drop on site 7 (and one the default owner list lacks). */
export const SAMPLE_MUSIC_RECORD_DROP_ID = 352;

const PICKED_STATUS = "after_drop";

export interface HarvestOptions {
  now: number;
  rareEverywhere: boolean;
}

function distinctCells(random: Random, count: number, area: SiteRecipe["area"]): Array<[number, number]> {
  const used = new Set<string>();
  const cells: Array<[number, number]> = [];
  while (cells.length < count) {
    const x = random.int(...area.x);
    const z = random.int(...area.z);
    if (used.has(`${x},${z}`)) continue;
    used.add(`${x},${z}`);
    cells.push([x, z]);
  }
  return cells;
}

/** The special (type, id) pairs a site must show: rares, supers, the twin ids and the music record. */
function specialDrops(siteId: number, recipe: SiteRecipe, random: Random, options: HarvestOptions): Resource[] {
  const specials: Resource[] = [ITEM_7];
  const everywhere = options.rareEverywhere;
  if (everywhere || random.chance(0.7)) specials.push(random.pick(recipe.supers));
  if (everywhere || siteId === 5 || siteId === 8) specials.push(random.pick(recipe.supers));
  specials.push(random.pick(RARE), random.pick(RARE));
  if (everywhere) specials.push(random.pick(RARE));
  if (siteId === 5) specials.push(["mysekai_item", 5], material(5));
  if (siteId === 7) specials.push(["mysekai_music_record", SAMPLE_MUSIC_RECORD_DROP_ID]);
  return specials;
}

function quantityFor([resourceType]: Resource, random: Random): number {
  return resourceType === "mysekai_material" ? random.int(1, 3) : 1;
}

export function makeHarvestMap(siteId: number, random: Random, options: HarvestOptions): Record<string, unknown> {
  const recipe = SITE_RECIPES[siteId] ?? FALLBACK_RECIPE;
  const cells = distinctCells(random, random.int(25, 40), recipe.area);
  const fixtures = cells.map(([positionX, positionZ]) => {
    const harvested = random.chance(0.2);
    return {
      mysekaiSiteHarvestFixtureId: random.pick(recipe.fixtureIds),
      positionX,
      positionZ,
      hp: harvested ? 0 : random.pick([20, 40, 60, 80]),
      userMysekaiSiteHarvestFixtureStatus: harvested ? "harvested" : "spawned",
      lastHarvestedAt: harvested ? options.now - random.int(1, 600) * 60_000 : null,
      mysekaiSiteHarvestSpawnLimitedRelationGroupId: null,
    };
  });

  const planned: Resource[] = specialDrops(siteId, recipe, random, options);
  const specialCount = planned.length;
  // Special drops go on fixtures still standing so the rare finds are pickable on the map.
  const standing = fixtures.filter((fixture) => fixture.userMysekaiSiteHarvestFixtureStatus === "spawned");
  const dropCount = random.int(60, 120);
  while (planned.length < dropCount) planned.push(random.pick(recipe.commons));

  const drops = planned.map((resource, index) => {
    const host = index < specialCount && standing.length > 0 ? random.pick(standing) : random.pick(fixtures);
    const picked = host.userMysekaiSiteHarvestFixtureStatus === "harvested";
    return {
      resourceType: resource[0],
      resourceId: resource[1],
      positionX: host.positionX,
      positionZ: host.positionZ,
      hp: picked ? 0 : random.int(1, 4) * 10,
      seq: index + 1,
      mysekaiSiteHarvestResourceDropStatus: picked ? PICKED_STATUS : "before_drop",
      quantity: quantityFor(resource, random),
      mysekaiSiteHarvestSpawnLimitedRelationGroupId: null,
    };
  });

  return {
    mysekaiSiteId: siteId,
    userMysekaiSiteHarvestFixtures: fixtures,
    userMysekaiSiteHarvestResourceDrops: drops,
  };
}
