/**
 * The owner's catalogue update: the generator (src/catalogue/master-data/) run over the servers given, and of
 * what it makes, only what the catalogue in use does not know yet is added. What the store keeps is both files in
 * the generator's format holding only what the built-in lacks (the previous update's entries stay, unless a
 * release's built-in has them now).
 */
import { buildCatalogue, readName } from "./master-data/catalogue.ts";
import { buildMusicRecords } from "./master-data/music.ts";
import type { Servers } from "./master-data/names.ts";
import { LANG_REGION, REGIONS, type NameLang, type Region, type Row, type Server } from "./master-data/read.ts";
import { ownerCatalogueProblem, type CatalogueFile, type MasterDataSource, type MusicFile, type OwnerCatalogue, type TitleEntry } from "./files.ts";
import type { CatalogResource } from "../maps/catalog.ts";

/** How much an update added, by what it is. */
export interface UpdateCounts {
  sites: number;
  resources: number;
  phenomena: number;
  harvestFixtures: number;
  parties: number;
  songTitles: number;
}

/**
 * A server's rows, then the other given servers' for ids it lacks: the generator then finds every id in its JP
 * slot and a name in each language; names a language's own server does not have are dropped afterwards.
 */
function withOthers(region: Region, own: Server | undefined, given: Server[]): Server {
  const order = own ? [own, ...given.filter((s) => s !== own)] : given;
  const cache = new Map<string, Map<number, Row>>();
  return {
    region,
    repo: own?.repo ?? "",
    commit: own?.commit ?? "",
    dataVersion: own?.dataVersion ?? "",
    rows(file) {
      let rows = cache.get(file);
      if (!rows) {
        rows = new Map();
        for (const server of order) for (const [id, row] of server.rows(file)) if (!rows.has(id)) rows.set(id, row);
        cache.set(file, rows);
      }
      return rows;
    },
  };
}

const EMPTY = (region: Region): Server => ({ region, repo: "", commit: "", dataVersion: "", rows: () => new Map() });

type Named = { name: Partial<Record<NameLang, string>>; composed?: NameLang[]; translated?: NameLang[] };

/** The entry with only the names its languages' own servers gave; null when none did. */
function ownNames<T extends Named>(entry: T, key: string, given: Map<Region, Server>): T | null {
  const langs = (Object.keys(entry.name) as NameLang[]).filter((lang) => {
    const server = given.get(LANG_REGION[lang]);
    return server !== undefined && readName(server, key) !== null;
  });
  if (langs.length === 0) return null;
  const keep = (list?: NameLang[]) => list?.filter((lang) => langs.includes(lang));
  const { composed, translated, ...rest } = entry;
  const name = Object.fromEntries(langs.map((lang) => [lang, entry.name[lang]]));
  return { ...rest, name, ...(keep(composed)?.length ? { composed: keep(composed) } : {}), ...(keep(translated)?.length ? { translated: keep(translated) } : {}) } as T;
}

/** `extra`'s entries whose key none of `known` has, first one per key. */
function newEntries<T>(known: T[][], extra: T[], key: (entry: T) => string): T[] {
  const seen = new Set(known.flatMap((list) => list.map(key)));
  return extra.filter((entry) => !seen.has(key(entry)) && seen.add(key(entry)) !== undefined);
}

function mergeSources<T extends { region: string }>(previous: T[], fresh: T[]): T[] {
  const regions = new Set(fresh.map((s) => s.region));
  return [...previous.filter((s) => !regions.has(s.region)), ...fresh].sort((a, b) => REGIONS.indexOf(a.region as Region) - REGIONS.indexOf(b.region as Region));
}

export interface UpdateInput {
  given: Server[];
  builtIn: { catalog: CatalogueFile; music: MusicFile };
  previous: OwnerCatalogue | null;
  now: Date;
}

/** The owner's new update and what it added; throws (nothing stored yet) when the generator or the result's check fails. */
export function buildUpdate({ given, builtIn, previous, now }: UpdateInput): { owner: OwnerCatalogue; added: UpdateCounts } {
  const byRegion = new Map(given.map((s) => [s.region, s]));
  const servers = Object.fromEntries(REGIONS.map((r) => [r, withOthers(r, byRegion.get(r), given)])) as Servers;
  const generated = buildCatalogue(servers) as unknown as CatalogueFile;
  const music = JSON.parse(buildMusicRecords(Object.fromEntries(REGIONS.map((r) => [r, byRegion.get(r) ?? EMPTY(r)])) as Servers).text) as MusicFile;

  const prior = previous?.catalog;
  const add = <T extends Named>(list: (c: CatalogueFile) => T[], key: (e: T) => string, keyOf: (e: T) => string) => {
    const kept = newEntries([list(builtIn.catalog)], prior ? list(prior) : [], key);
    const fresh = newEntries([list(builtIn.catalog), kept], list(generated), key)
      .map((e) => ownNames(e, keyOf(e), byRegion))
      .filter((e): e is T => e !== null);
    return { all: [...kept, ...fresh], added: fresh.length };
  };
  const sites = add((c) => c.sites as (CatalogueFile["sites"][number] & Named)[], (s) => String(s.id), (s) => `site:${s.id}`);
  const resources = add((c) => c.resources as (CatalogResource & Named)[], (r) => `${r.type}:${r.id}`, (r) => `${r.type}:${r.id}`);
  const phenomena = add((c) => c.phenomena as (CatalogueFile["phenomena"][number] & Named)[], (p) => String(p.id), (p) => `phenomena:${p.id}`);
  const fixtures = newEntries([builtIn.catalog.harvestFixtures], [...(prior?.harvestFixtures ?? []), ...generated.harvestFixtures], (f) => String(f.id));
  const parties = newEntries([builtIn.catalog.parties ?? []], [...(prior?.parties ?? []), ...(generated.parties ?? [])], (p) => String(p.id));
  const geometry = newEntries([builtIn.catalog.siteGeometry.sites], [...(prior?.siteGeometry.sites ?? []), ...generated.siteGeometry.sites], (g) => String(g.siteId));
  const updatedAt = now.toISOString();
  const masterData: MasterDataSource[] = given.map((s) => ({ region: s.region, repo: s.repo, commit: s.commit, dataVersion: s.dataVersion, updatedAt }));

  const titles = mergeTitles(builtIn.music, previous?.music ?? null, music);
  const catalog: CatalogueFile = {
    source:
      "The owner's additions to the built-in catalogue (src/maps/data/catalog.json), made by `catalogue update` with the " +
      "generator of src/catalogue/master-data/ from the master data `masterData` names; only ids the built-in lacks, " +
      "each name from its language's own server (a language whose server was not given falls back as the maps do).",
    masterData: mergeSources(prior?.masterData ?? [], masterData),
    sites: sites.all,
    resources: resources.all,
    phenomena: phenomena.all,
    harvestFixtures: fixtures,
    parties,
    siteGeometry: { ...generated.siteGeometry, sites: geometry },
  };
  const owner: OwnerCatalogue = {
    catalog,
    music: {
      about: "The owner's additions to the built-in song titles (src/maps/data/music-records.json), by `catalogue update`: " + (music.about ?? ""),
      sources: mergeSources(previous?.music.sources ?? [], music.sources.filter((s) => byRegion.has(s.region as Region)).map((s) => ({ ...s, updatedAt }))),
      titles: titles.titles,
    },
  };
  const problem = ownerCatalogueProblem(owner);
  if (problem !== null) throw new Error(`the update would be malformed: ${problem}`);
  const newFixtures = fixtures.length - newEntries([builtIn.catalog.harvestFixtures], prior?.harvestFixtures ?? [], (f) => String(f.id)).length;
  return { owner, added: { sites: sites.added, resources: resources.added, phenomena: phenomena.added, harvestFixtures: newFixtures, parties: parties.length - newEntries([builtIn.catalog.parties ?? []], prior?.parties ?? [], (p) => String(p.id)).length, songTitles: titles.added } };
}

/** Per song and server: the titles the built-in lacks, the previous update's first; a title equal to the song's jp one is left out. */
function mergeTitles(builtIn: MusicFile, previous: MusicFile | null, fresh: MusicFile): { titles: Record<string, TitleEntry>; added: number } {
  const titles: Record<string, TitleEntry> = {};
  let added = 0;
  const put = (id: string, entry: TitleEntry, counted: boolean) => {
    for (const [region, title] of Object.entries(entry) as [keyof TitleEntry, string][]) {
      const known = { ...titles[id], ...builtIn.titles[id] };
      if (known[region] !== undefined || (region !== "jp" && known.jp === title)) continue;
      titles[id] = { ...titles[id], [region]: title };
      if (counted) added++;
    }
  };
  for (const [id, entry] of Object.entries(previous?.titles ?? {})) put(id, entry, false);
  for (const [id, entry] of Object.entries(fresh.titles)) put(id, entry, true);
  return { titles, added };
}
