/** The resource catalogue: site names, resource names and tiers keyed by (type, id), harvest-point kinds, weathers. */
import catalogJson from "./data/catalog.json" with { type: "json" };
import { resourceKey, type ResourceKey } from "../save/model.ts";

import type { Locale } from "../i18n/locales.ts";

export type { Locale } from "../i18n/locales.ts";
export type Tier = "super" | "rare" | "common";
/** The catalogue's name keys: `zh` holds the CN server's (simplified) names, `zh-Hant` the TW server's, `ko` the KR server's. */
export type NameKey = "zh" | "zh-Hant" | "ja" | "ko" | "en";
export type LocalizedName = Partial<Record<NameKey, string>>;

/** How a harvest point is drawn. */
export type FixtureKind = "tree" | "rock" | "plant" | "other";

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

interface CatalogFile {
  sites: { id: number; key: string; name: LocalizedName }[];
  resources: CatalogResource[];
  phenomena: { id: number; name: LocalizedName }[];
  harvestFixtures: { id: number; type: string }[];
  siteGeometry: { convention: string; sites: SiteGeometryEntry[] };
  /** Birthday parties (scripts/master-data/parties.ts), absent in catalogues generated before them. */
  parties?: CatalogParty[];
}

/** What the player's page reads of a catalogue party; any field may be missing from an older catalogue. */
export interface CatalogParty {
  id: number;
  /** The character's given name per language. */
  character?: LocalizedName;
  year?: number;
  /** The requirements (materials obtained) of the master data's `birthdayPartyDeliveryTotalRewards` for the party. */
  deliveryTotalRewards?: number[];
}

const file = catalogJson as unknown as CatalogFile;

const resourcesByKey = new Map<ResourceKey, CatalogResource>(
  file.resources.map((r) => [resourceKey(r.type, r.id), r]),
);
const sitesById = new Map(file.sites.map((s) => [s.id, s]));
const fixtureTypeById = new Map(file.harvestFixtures.map((f) => [f.id, f.type]));
const geometryBySite = new Map(file.siteGeometry.sites.map((g) => [g.siteId, g]));
const phenomenaById = new Map(file.phenomena.map((p) => [p.id, p]));
const partiesById = new Map((file.parties ?? []).map((p) => [p.id, p]));

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
  return resourcesByKey.get(resourceKey(type, id)) ?? null;
}

/** Every catalogue resource, in the catalogue's order (watch rules list and match them). */
export function catalogResources(): readonly CatalogResource[] {
  return file.resources;
}

export function siteName(siteId: number, locale: Locale): string {
  return knownSiteName(siteId, locale) ?? `Site ${siteId}`;
}

/** The site's name in the locale (with its fallbacks), or null for a site the catalogue does not know. */
export function knownSiteName(siteId: number, locale: Locale): string | null {
  const site = sitesById.get(siteId);
  return site ? pickName(site.name, locale) : null;
}

/** A weather (mysekaiPhenomenaId) by its game name, e.g. 流星雨; null for an id the catalogue does not know. */
export function weatherName(phenomenaId: number, locale: Locale): string | null {
  const entry = phenomenaById.get(phenomenaId);
  return entry ? pickName(entry.name, locale) : null;
}

/** A birthday party by its id (`birthdayPartyId`), or null when the catalogue does not know it. */
export function catalogParty(partyId: number): CatalogParty | null {
  return partiesById.get(partyId) ?? null;
}

export function siteGeometryEntry(siteId: number): SiteGeometryEntry | null {
  return geometryBySite.get(siteId) ?? null;
}

const FIXTURE_KIND_BY_TYPE: Record<string, FixtureKind> = {
  wood: "tree",
  mineral: "rock",
  plant: "plant",
  birthday_plant: "plant",
};

export function fixtureKind(fixtureId: number): FixtureKind {
  const type = fixtureTypeById.get(fixtureId);
  return (type && FIXTURE_KIND_BY_TYPE[type]) || "other";
}

/** Every name in the catalogue, for the font subset script. */
export function allCatalogNames(): string[] {
  const names: string[] = [];
  for (const entry of [...file.sites, ...file.resources, ...file.phenomena]) {
    for (const value of Object.values(entry.name)) if (value) names.push(value);
  }
  return names;
}
