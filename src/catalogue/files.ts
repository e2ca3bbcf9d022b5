/**
 * The two files src/catalogue/master-data/ writes (src/maps/data/catalog.json and music-records.json) as the
 * service reads them, and the checks an owner's copy passes before it is stored or used: a stored copy that
 * fails them is never drawn from.
 */
import type { CatalogParty, CatalogResource, LocalizedName, SiteGeometryEntry } from "../maps/catalog.ts";
import type { TitleRegion } from "../maps/music-titles.ts";

/** One server's master data behind the file; an owner's update adds its address's `updatedAt`. */
export interface MasterDataSource {
  region: string;
  repo: string;
  commit: string;
  dataVersion: string;
  /** ISO time of the owner's update (absent in the built-in file). */
  updatedAt?: string;
}

export interface CatalogueFile {
  source?: string;
  masterData: MasterDataSource[];
  sites: { id: number; key: string; name: LocalizedName }[];
  resources: CatalogResource[];
  phenomena: { id: number; name: LocalizedName; timePeriod?: string }[];
  harvestFixtures: { id: number; type: string }[];
  /** Birthday parties, by master data's `birthdayParties` (absent in a file from before they were read). */
  parties?: CatalogParty[];
  /** Where a tier rule and lunabot's id lists disagree, and which the file follows (read by people, not the service). */
  tierDifferences?: object[];
  siteGeometry: { convention: string; source?: string; sites: SiteGeometryEntry[] };
}

export type TitleEntry = Partial<Record<TitleRegion, string>>;

export interface MusicFile {
  about?: string;
  sources: { region: string; repo: string; commit: string; masterVersion: string; updatedAt?: string }[];
  titles: Record<string, TitleEntry>;
}

/** What the store holds of an owner's update: both files, each in the generator's format, holding only what the built-in lacks. */
export interface OwnerCatalogue {
  catalog: CatalogueFile;
  music: MusicFile;
}

const TIERS = new Set(["super", "rare", "common"]);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isId = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
/** Control and direction-override characters would reach chat texts and terminals as they are: never in a name. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const isName = (v: unknown) => isRecord(v) && Object.values(v).length > 0 && Object.values(v).every((n) => typeof n === "string" && n.length > 0 && n.length <= 200 && !CONTROL.test(n));
const isText = (v: unknown) => typeof v === "string" && v.length > 0 && v.length <= 100;

function listProblem(list: unknown, what: string, ok: (entry: Record<string, unknown>) => boolean): string | null {
  if (!Array.isArray(list)) return `${what} is not a list`;
  const bad = list.findIndex((entry) => !isRecord(entry) || !isId(entry.id) || !ok(entry));
  return bad === -1 ? null : `${what}[${bad}] is malformed: ${JSON.stringify(list[bad]).slice(0, 120)}`;
}

/** Why `value` is not a catalogue file the maps can draw from, or null. */
function catalogueProblem(value: unknown): string | null {
  if (!isRecord(value)) return "the catalogue is not a JSON object";
  if (!Array.isArray(value.masterData) || !value.masterData.every((m) => isRecord(m) && isText(m.region) && typeof m.dataVersion === "string")) return "masterData is malformed";
  const geometry = value.siteGeometry;
  if (!isRecord(geometry) || !Array.isArray(geometry.sites)) return "siteGeometry is malformed";
  return (
    listProblem(value.sites, "sites", (s) => isText(s.key) && isName(s.name)) ??
    listProblem(value.resources, "resources", (r) => isText(r.type) && isName(r.name) && TIERS.has(r.tier as string) && isText(r.kind)) ??
    listProblem(value.phenomena, "phenomena", (p) => isName(p.name)) ??
    listProblem(value.harvestFixtures, "harvestFixtures", (f) => isText(f.type)) ??
    listProblem(value.parties ?? [], "parties", (p) => isName(p.character) && Number.isSafeInteger(p.year) && (p.spawnGroupId === null || isId(p.spawnGroupId)) && Array.isArray(p.materials))
  );
}

/** Why `value` is not a song-title file, or null. */
function musicProblem(value: unknown): string | null {
  if (!isRecord(value) || !isRecord(value.titles) || !Array.isArray(value.sources)) return "the song titles are not a JSON object with sources and titles";
  for (const [id, entry] of Object.entries(value.titles)) {
    if (!/^\d{1,9}$/.test(id) || !isName(entry)) return `song title ${id.slice(0, 20)} is malformed`;
  }
  return null;
}

export function ownerCatalogueProblem(value: unknown): string | null {
  if (!isRecord(value)) return "not a JSON object";
  return catalogueProblem(value.catalog) ?? musicProblem(value.music);
}
