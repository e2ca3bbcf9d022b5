/**
 * The catalogue and song titles the maps draw from: the built-in files (src/maps/data/, regenerated with each
 * release) overlaid by the owner's update (`catalogue update`, kept in the store). The built-in wins for every id
 * it has, so a release that catches up replaces the owner's entries; the owner's adds what the built-in lacks.
 * Swapped whole: a lookup sees the old catalogue or the new one, never half of each. Each thread holds its own
 * (src/catalogue/follow.ts on the service's thread, the generate task's request in the workers).
 */
import builtInCatalogJson from "../maps/data/catalog.json" with { type: "json" };
import builtInMusicJson from "../maps/data/music-records.json" with { type: "json" };
import { ownerCatalogueProblem, type CatalogueFile, type MusicFile, type OwnerCatalogue } from "./files.ts";

const builtInCatalog = builtInCatalogJson as unknown as CatalogueFile;
const builtInMusic = builtInMusicJson as unknown as MusicFile;

/** The owner's update as the store holds it: its JSON text, and a stamp that changes with every update. */
export interface StoredCatalogue {
  stamp: string;
  text: string;
}

interface Loaded {
  catalog: CatalogueFile;
  music: MusicFile;
  owner: OwnerCatalogue | null;
  stored: StoredCatalogue | null;
}

let loaded: Loaded = { catalog: builtInCatalog, music: builtInMusic, owner: null, stored: null };

const byId = <T extends { id: number }>(base: T[], extra: T[]) => {
  const known = new Set(base.map((entry) => entry.id));
  return [...base, ...extra.filter((entry) => !known.has(entry.id))];
};

function overlayCatalogue(base: CatalogueFile, owner: CatalogueFile): CatalogueFile {
  const known = new Set(base.resources.map((r) => `${r.type}:${r.id}`));
  const geometry = new Set(base.siteGeometry.sites.map((g) => g.siteId));
  return {
    ...base,
    sites: byId(base.sites, owner.sites),
    resources: [...base.resources, ...owner.resources.filter((r) => !known.has(`${r.type}:${r.id}`))],
    phenomena: byId(base.phenomena, owner.phenomena),
    harvestFixtures: byId(base.harvestFixtures, owner.harvestFixtures),
    parties: byId(base.parties ?? [], owner.parties ?? []),
    siteGeometry: { ...base.siteGeometry, sites: [...base.siteGeometry.sites, ...owner.siteGeometry.sites.filter((g) => !geometry.has(g.siteId))] },
  };
}

/** Per song and server: the base's title where it has one, else the owner's. */
function overlayMusic(base: MusicFile, owner: MusicFile): MusicFile {
  const titles = { ...base.titles };
  for (const [id, entry] of Object.entries(owner.titles)) titles[id] = { ...entry, ...base.titles[id] };
  return { ...base, titles };
}

export const builtInCatalogue = (): { catalog: CatalogueFile; music: MusicFile } => ({ catalog: builtInCatalog, music: builtInMusic });
export const loadedCatalogue = (): CatalogueFile => loaded.catalog;
export const loadedMusic = (): MusicFile => loaded.music;
/** The owner's update in use (null: the built-in alone). */
export const ownerCatalogue = (): OwnerCatalogue | null => loaded.owner;
/** What a worker needs to draw with the same catalogue as this thread. */
export const storedCatalogue = (): StoredCatalogue | null => loaded.stored;

/** Parses and checks a stored update; throws with the reason when it is not one (the catalogue in use stays). */
export function parseOwnerCatalogue(text: string): OwnerCatalogue {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error("the stored catalogue is not JSON");
  }
  const problem = ownerCatalogueProblem(value);
  if (problem !== null) throw new Error(`the stored catalogue is malformed: ${problem}`);
  return value as OwnerCatalogue;
}

/** Uses `stored` (null: the built-in alone) unless it is the one in use already. Throws, changing nothing, when it is malformed. */
export function useStoredCatalogue(stored: StoredCatalogue | null): boolean {
  if (stored?.stamp === loaded.stored?.stamp) return false;
  if (stored === null) {
    loaded = { catalog: builtInCatalog, music: builtInMusic, owner: null, stored: null };
    return true;
  }
  const owner = parseOwnerCatalogue(stored.text);
  loaded = { catalog: overlayCatalogue(builtInCatalog, owner.catalog), music: overlayMusic(builtInMusic, owner.music), owner, stored };
  return true;
}
