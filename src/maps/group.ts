/** Groups a site's drops per position by (type, id), quantities summed; totals per resource. */
import type { SiteHarvest } from "../save/model.ts";
import { fixtureKind, siteName, type FixtureKind, type Locale } from "./catalog.ts";
import { compareByImportance, describeResource, HARVEST_POINT_TYPE, type ResourceView } from "./resources.ts";

export interface SpotItem {
  resource: ResourceView;
  quantity: number;
  harvested: boolean;
}

/** Every drop lying on one exact position. */
export interface Spot {
  positionX: number;
  positionZ: number;
  items: SpotItem[];
}

export interface ResourceTotal {
  resource: ResourceView;
  /** Sum of quantities of the drops not yet harvested. */
  total: number;
  positions: { x: number; z: number; quantity: number }[];
}

export interface FixtureView {
  kind: FixtureKind;
  positionX: number;
  positionZ: number;
  harvested: boolean;
}

export interface SiteView {
  siteId: number;
  name: string;
  spots: Spot[];
  totals: ResourceTotal[];
  fixtures: FixtureView[];
}

export interface GroupOptions {
  locale: Locale;
  ownedMusicRecords: ReadonlySet<number>;
  showHarvested: boolean;
}

const byPosition = (a: { positionX: number; positionZ: number }, b: { positionX: number; positionZ: number }) =>
  a.positionX - b.positionX || a.positionZ - b.positionZ;

export function groupSite(site: SiteHarvest, opts: GroupOptions): SiteView {
  const spots = new Map<string, Spot>();
  const totals = new Map<string, ResourceTotal>();
  const describe = (type: string, id: number, spawnGroup: number | null) => describeResource(type, id, opts.locale, opts.ownedMusicRecords, spawnGroup);

  /** A resource's total over the site, and its quantity at a spot. */
  const count = (resource: ResourceView, x: number, z: number, quantity: number) => {
    const total = totals.get(resource.groupKey) ?? { resource, total: 0, positions: [] };
    total.total += quantity;
    const at = total.positions.find((p) => p.x === x && p.z === z);
    if (at) at.quantity += quantity;
    else total.positions.push({ x, z, quantity });
    totals.set(resource.groupKey, total);
  };
  /** What a spot shows: one item per resource and harvest state. */
  const place = (resource: ResourceView, x: number, z: number, quantity: number, harvested: boolean) => {
    const spotKey = `${x},${z}`;
    const spot = spots.get(spotKey) ?? { positionX: x, positionZ: z, items: [] };
    const item = spot.items.find((i) => i.resource.groupKey === resource.groupKey && i.harvested === harvested);
    if (item) item.quantity += quantity;
    else spot.items.push({ resource, quantity, harvested });
    spots.set(spotKey, spot);
  };

  for (const drop of site.drops) {
    const resource = describe(drop.resourceType, drop.resourceId, drop.spawnGroup);
    if (!drop.harvested) count(resource, drop.positionX, drop.positionZ, drop.quantity);
    if (drop.harvested && !opts.showHarvested) continue;
    place(resource, drop.positionX, drop.positionZ, drop.quantity, drop.harvested);
  }

  // A party's harvest point with no party drop on it is a find of its own: the player goes there all the same.
  const partyDropAt = new Set([...totals.values()].filter((t) => t.resource.find === "party").flatMap((t) => t.positions.map((p) => `${p.x},${p.z}`)));
  for (const f of site.fixtures) {
    if (f.spawnGroup === null || f.harvested || partyDropAt.has(`${f.positionX},${f.positionZ}`)) continue;
    const resource = describe(HARVEST_POINT_TYPE, f.fixtureId, f.spawnGroup);
    count(resource, f.positionX, f.positionZ, 1);
    place(resource, f.positionX, f.positionZ, 1, false);
  }

  const sortedSpots = [...spots.values()].sort(byPosition);
  for (const spot of sortedSpots) {
    spot.items.sort(
      (a, b) =>
        Number(a.harvested) - Number(b.harvested) ||
        compareByImportance({ resource: a.resource, total: a.quantity }, { resource: b.resource, total: b.quantity }),
    );
  }
  const sortedTotals = [...totals.values()].sort(compareByImportance);
  for (const t of sortedTotals) t.positions.sort((a, b) => a.x - b.x || a.z - b.z);

  const fixtures = site.fixtures
    .filter((f) => opts.showHarvested || !f.harvested)
    .map((f) => ({ kind: fixtureKind(f.fixtureId, f.spawnGroup), positionX: f.positionX, positionZ: f.positionZ, harvested: f.harvested }))
    .sort(byPosition);

  return { siteId: site.siteId, name: siteName(site.siteId, opts.locale), spots: sortedSpots, totals: sortedTotals, fixtures };
}
