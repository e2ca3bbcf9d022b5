/**
 * One server's master data for the owner's catalogue update: a folder in the layout of Sekai-World's public
 * master-data repositories, or an http(s) base URL serving the same files. Every file the generator reads is read
 * and checked before anything is built, each within a byte cap and (over HTTP) a timeout: a broken or partial
 * source is refused with the file and the reason, and nothing changes.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { REPOS } from "./master-data/curation.ts";
import { REGIONS, type Region, type Row, type Server } from "./master-data/read.ts";
import type { Locale } from "../i18n/locales.ts";
import { catalogueMessages, type CatalogueMessages } from "../i18n/owner/index.ts";

/** The files src/catalogue/master-data/ reads (a file it starts reading must be added here: rows() refuses others). */
const REQUIRED_FILES = [
  "mysekaiSites.json",
  "mysekaiMaterials.json",
  "mysekaiItems.json",
  "mysekaiFixtures.json",
  "materials.json",
  "mysekaiPhenomenas.json",
  "mysekaiSiteHarvestFixtures.json",
  "mysekaiMusicRecords.json",
  "musics.json",
  "musicSoundTracks.json",
  "gameCharacters.json",
  "gameCharacterUnits.json",
  "mysekaiMaterialGameCharacterRelations.json",
] as const;
/** Files an older server does not have yet (EN has no birthdayParties.json): absent is empty. */
const OPTIONAL_FILES = ["birthdayParties.json", "birthdayPartyDeliveryTotalRewards.json"] as const;

/** The largest master-data file read (JP's mysekaiFixtures.json is 1.7 MB in 2026). */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** One file's fetch, from the request to its last byte. */
const FETCH_TIMEOUT_MS = 30_000;

/** The public repositories' raw files, for `catalogue update --fetch`. */
const defaultAddress = (region: Region) => `https://raw.githubusercontent.com/${REPOS[region]}/main/`;

/** A source refused: its message in English, `in(locale)` in the owner's language. */
export class SourceError extends Error {
  constructor(readonly problem: (t: CatalogueMessages) => string) {
    super(problem(catalogueMessages("en")));
  }

  in(locale: Locale): string {
    return this.problem(catalogueMessages(locale));
  }
}

const isUrl = (address: string) => /^https?:\/\//i.test(address);

export interface SourceLimits {
  maxFileBytes: number;
  fetchTimeoutMs: number;
}
const LIMITS: SourceLimits = { maxFileBytes: MAX_FILE_BYTES, fetchTimeoutMs: FETCH_TIMEOUT_MS };

/** A file's text, or null when the source does not have it. */
async function readText(address: string, file: string, limits: SourceLimits): Promise<string | null> {
  if (!isUrl(address)) {
    const path = join(address, file);
    if (!existsSync(path)) return null;
    // A pipe or a device (a link to /dev/zero) has no size to check and may never end: regular files only.
    const stat = statSync(path);
    if (!stat.isFile()) throw new SourceError((t) => t.notAFile(file));
    if (stat.size > limits.maxFileBytes) throw new SourceError((t) => t.tooLarge(file, limits.maxFileBytes));
    return readFileSync(path, "utf8");
  }
  const url = new URL(file, address.endsWith("/") ? address : `${address}/`);
  const signal = AbortSignal.timeout(limits.fetchTimeoutMs);
  try {
    const response = await fetch(url, { signal, redirect: "follow" });
    if (response.status === 404) return null;
    if (!response.ok) throw new SourceError((t) => t.httpStatus(file, response.status));
    return await cappedText(response, file, limits.maxFileBytes);
  } catch (error) {
    if (error instanceof SourceError) throw error;
    if (signal.aborted) throw new SourceError((t) => t.timedOut(file, limits.fetchTimeoutMs / 1000));
    throw new SourceError((t) => t.unreachable(file, error instanceof Error ? error.message : String(error)));
  }
}

async function cappedText(response: Response, file: string, cap: number): Promise<string> {
  if (Number(response.headers.get("content-length") ?? 0) > cap) {
    await response.body?.cancel();
    throw new SourceError((t) => t.tooLarge(file, cap));
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > cap) {
      await response.body?.cancel().catch(() => {});
      throw new SourceError((t) => t.tooLarge(file, cap));
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseRows(file: string, text: string): Row[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new SourceError((t) => t.notJson(file));
  }
  if (!Array.isArray(value) || !value.every((row) => typeof row === "object" && row !== null && Number.isSafeInteger((row as Row).id))) {
    throw new SourceError((t) => t.notRows(file));
  }
  return value as Row[];
}

function dataVersionOf(text: string | null): string {
  if (text === null) throw new SourceError((t) => t.missing("versions.json"));
  let version: unknown;
  try {
    version = (JSON.parse(text) as { dataVersion?: unknown }).dataVersion;
  } catch {
    throw new SourceError((t) => t.notJson("versions.json"));
  }
  if (typeof version !== "string" || !/^[\w.-]{1,40}$/.test(version)) throw new SourceError((t) => t.noDataVersion);
  return version;
}

/** A URL as the status page and the stored update show it: no user, password, query or fragment (they may hold a secret). */
export function shownAddress(address: string): string {
  if (!isUrl(address)) return resolve(address);
  if (!URL.canParse(address)) return "(not a URL)";
  const url = new URL(address);
  url.username = url.password = url.search = url.hash = "";
  return url.href;
}

/** An update's source as the generator reads it; `repo` is its address as shown (shownAddress). */
export async function loadSource(region: Region, address: string, limits: SourceLimits = LIMITS): Promise<Server> {
  if (isUrl(address) ? !URL.canParse(address) : !(existsSync(address) && statSync(address).isDirectory())) throw new SourceError((t) => t.noFolder(address.slice(0, 200)));
  const base = isUrl(address) ? address : resolve(address);
  const repo = shownAddress(address);
  const dataVersion = dataVersionOf(await readText(base, "versions.json", limits));
  const files = new Map<string, Map<number, Row>>();
  for (const file of [...REQUIRED_FILES, ...OPTIONAL_FILES]) {
    const text = await readText(base, file, limits);
    if (text === null && (REQUIRED_FILES as readonly string[]).includes(file)) throw new SourceError((t) => t.missing(file));
    const rows = text === null ? [] : parseRows(file, text);
    if (rows.length === 0 && (REQUIRED_FILES as readonly string[]).includes(file)) throw new SourceError((t) => t.empty(file));
    const byId = new Map(rows.map((row) => [row.id, row]));
    if (byId.size !== rows.length) throw new SourceError((t) => t.duplicateIds(file));
    files.set(file, byId);
  }
  return {
    region,
    repo,
    commit: "",
    dataVersion,
    rows(file) {
      const rows = files.get(file);
      if (!rows) throw new Error(`the generator reads ${file}: add it to src/catalogue/sources.ts`);
      return rows;
    },
  };
}

/** `region=address` arguments, and `--fetch`'s default addresses for the regions not named. */
export function parseSources(args: string[], fetchDefaults: boolean): Map<Region, string> {
  const sources = new Map<Region, string>();
  for (const arg of args) {
    const [region, address] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
    if (!(REGIONS as readonly string[]).includes(region)) throw new SourceError((t) => t.badArgument(arg));
    if (address === undefined || address === "") {
      if (!fetchDefaults) throw new SourceError((t) => t.badArgument(arg));
      sources.set(region as Region, defaultAddress(region as Region));
    } else sources.set(region as Region, address);
  }
  if (fetchDefaults && args.length === 0) for (const region of REGIONS) sources.set(region, defaultAddress(region));
  if (sources.size === 0) throw new SourceError((t) => t.noSources);
  return sources;
}
