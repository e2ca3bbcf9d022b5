/** The resource catalogue: site names, resource names and tiers keyed by (type, id), harvest-point kinds, weathers. */
import { loadedCatalogue } from "../catalogue/loaded.ts";
import type { CatalogueFile } from "../catalogue/files.ts";
import { resourceKey, type ResourceKey } from "../save/model.ts";

import type { Locale } from "../i18n/locales.ts";

export type { Locale } from "../i18n/locales.ts";
export type Tier = "super" | "rare" | "common";
/** The catalogue's name keys: `zh` holds the CN server's (simplified) names, `zh-Hant` the TW server's, `ko` the KR server's. */
export type NameKey = "zh" | "zh-Hant" | "ja" | "ko" | "en";
export type LocalizedName = Partial<Record<NameKey, string>>;

/** How a harvest point is drawn; "party": a birthday party's own harvest point (a party-limited spawn). */
export type FixtureKind = "tree" | "rock" | "plant" | "other" | "party";

export const MUSIC_RECORD_TYPE = "mysekai_music_record";

export interface CatalogResource {
  type: string;
  id: number;
  name: LocalizedName;
  tier: Tier;
  /** materialType for materials (wood, mineral, junk ...), else the type without its `mysekai_` prefix. */
  kind: string;
}

export interface SiteGeometryEntry {
  siteId: number;
  grid_size: number;
  offset_x: number;
  offset_z: number;
  dir_x: number;
  dir_z: number;
  rev_xz: boolean;
  /** [left, top, width, height] in the 1920x1080 site image. */
  crop_bbox: [number, number, number, number];
}

/** A birthday party (master data `birthdayParties`): what its party-limited spawns are called. */
export interface CatalogParty {
  id: number;
  assetbundleName: string;
  characterId: number;
  /** The character's given name per language. */
  character: LocalizedName;
  year: number;
  /** mysekaiSiteHarvestSpawnLimitedRelationGroupId of the party's harvest points and drops. */
  spawnGroupId: number | null;
  harvestFixtureId: number | null;
  materials: { type: string; id: number }[];
  /** The materials obtained each of the master data's `birthdayPartyDeliveryTotalRewards` asks, ascending (absent: not known). */
  deliveryTotalRewards?: number[];
}

/** The lookups' indexes of one catalogue, rebuilt when the loaded catalogue is swapped (src/catalogue/loaded.ts). */
function indexOf(file: CatalogueFile) {
  const parties = file.parties ?? [];
  return {
    file,
    resourcesByKey: new Map<ResourceKey, CatalogResource>(file.resources.map((r) => [resourceKey(r.type, r.id), r])),
    sitesById: new Map(file.sites.map((s) => [s.id, s])),
    fixtureTypeById: new Map(file.harvestFixtures.map((f) => [f.id, f.type])),
    geometryBySite: new Map(file.siteGeometry.sites.map((g) => [g.siteId, g])),
    phenomenaById: new Map(file.phenomena.map((p) => [p.id, p])),
    partiesBySpawnGroup: new Map(parties.flatMap((p) => (p.spawnGroupId === null ? [] : [[p.spawnGroupId, p] as const]))),
    partyFixtureIds: new Set(parties.flatMap((p) => (p.harvestFixtureId === null ? [] : [p.harvestFixtureId]))),
    partiesById: new Map(parties.map((p) => [p.id, p])),
  };
}

let indexed = indexOf(loadedCatalogue());
function index(): ReturnType<typeof indexOf> {
  const file = loadedCatalogue();
  if (indexed.file !== file) indexed = indexOf(file);
  return indexed;
}

/** A name missing in the locale's own key: traditional Chinese reads simplified first; Korean reads the game's original, Japanese. */
const LOCALE_FALLBACK: Record<Locale, NameKey[]> = {
  "zh-Hans": ["zh", "zh-Hant", "ja", "en"],
  "zh-Hant": ["zh-Hant", "zh", "ja", "en"],
  ja: ["ja", "en", "zh"],
  ko: ["ko", "ja", "en", "zh"],
  en: ["en", "ja", "zh"],
};

export function pickName(name: LocalizedName, locale: Locale): string | null {
  for (const l of LOCALE_FALLBACK[locale]) {
    const value = name[l];
    if (value) return value;
  }
  return null;
}

export function findResource(type: string, id: number): CatalogResource | null {
  return index().resourcesByKey.get(resourceKey(type, id)) ?? null;
}

/** Of `type:id` keys, those the catalogue does not know now (a catalogue updated since may know some). */
export function stillUnknown(keys: Iterable<string>): string[] {
  return [...new Set(keys)].filter((key) => {
    const at = key.lastIndexOf(":");
    return findResource(key.slice(0, at), Number(key.slice(at + 1))) === null;
  });
}

/** Every catalogue resource, in the catalogue's order (watch rules list and match them). */
export function catalogResources(): readonly CatalogResource[] {
  return index().file.resources;
}

export function siteName(siteId: number, locale: Locale): string {
  return knownSiteName(siteId, locale) ?? `Site ${siteId}`;
}

/** The site's name in the locale (with its fallbacks), or null for a site the catalogue does not know. */
export function knownSiteName(siteId: number, locale: Locale): string | null {
  const site = index().sitesById.get(siteId);
  return site ? pickName(site.name, locale) : null;
}

/** A weather (mysekaiPhenomenaId) by its game name, e.g. 流星雨; null for an id the catalogue does not know. */
export function weatherName(phenomenaId: number, locale: Locale): string | null {
  const entry = index().phenomenaById.get(phenomenaId);
  return entry ? pickName(entry.name, locale) : null;
}

/** A birthday party by its id (`birthdayPartyId`), or null when the catalogue does not know it. */
export function catalogParty(partyId: number): CatalogParty | null {
  return index().partiesById.get(partyId) ?? null;
}

export function siteGeometryEntry(siteId: number): SiteGeometryEntry | null {
  return index().geometryBySite.get(siteId) ?? null;
}

/** The party whose spawns carry this group id; null for a group no party in the catalogue knows. */
export function partyBySpawnGroup(groupId: number): CatalogParty | null {
  return index().partiesBySpawnGroup.get(groupId) ?? null;
}

const FIXTURE_KIND_BY_TYPE: Record<string, FixtureKind> = {
  wood: "tree",
  mineral: "rock",
  plant: "plant",
  birthday_plant: "plant",
};

/** A harvest point carrying a spawn group, or one a party names, is the party's; else by the fixture's type. */
export function fixtureKind(fixtureId: number, spawnGroup: number | null = null): FixtureKind {
  const { partyFixtureIds, fixtureTypeById } = index();
  if (spawnGroup !== null || partyFixtureIds.has(fixtureId)) return "party";
  const type = fixtureTypeById.get(fixtureId);
  return (type && FIXTURE_KIND_BY_TYPE[type]) || "other";
}

/** Every name in the catalogue, for the font subset script. */
export function allCatalogNames(): string[] {
  const names: string[] = [];
  const { file } = index();
  for (const entry of [...file.sites, ...file.resources, ...file.phenomena]) {
    for (const value of Object.values(entry.name)) if (value) names.push(value);
  }
  for (const party of file.parties ?? []) for (const value of Object.values(party.character)) if (value) names.push(value);
  return names;
}
