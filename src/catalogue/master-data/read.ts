/** One server's master data, read from a local checkout of its public master-data repository. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPOS } from "./curation.ts";

export const REGIONS = ["jp", "en", "cn", "tw", "kr"] as const;
export type Region = (typeof REGIONS)[number];

/** The catalogue's name languages and the server each one is read from. */
export const NAME_LANGS = ["ja", "en", "zh", "zh-Hant", "ko"] as const;
export type NameLang = (typeof NAME_LANGS)[number];
export const LANG_REGION: Record<NameLang, Region> = { ja: "jp", en: "en", zh: "cn", "zh-Hant": "tw", ko: "kr" };

export type Row = Record<string, unknown> & { id: number };

export interface Server {
  region: Region;
  repo: string;
  commit: string;
  dataVersion: string;
  /** Rows of a master-data file by id; an absent file (an older server) is empty. */
  rows(file: string): Map<number, Row>;
}

function gitHead(dir: string): string {
  const result = Bun.spawnSync(["git", "-C", dir, "rev-parse", "HEAD"]);
  const commit = result.stdout.toString().trim();
  if (result.exitCode !== 0 || !/^[0-9a-f]{40}$/.test(commit)) {
    throw new Error(`${dir}: not a git checkout (the catalogue names each source's commit)`);
  }
  return commit;
}

export function loadServer(region: Region, dir: string): Server {
  const versions = JSON.parse(readFileSync(join(dir, "versions.json"), "utf8")) as { dataVersion?: string };
  if (!versions.dataVersion) throw new Error(`${dir}/versions.json has no dataVersion`);
  const cache = new Map<string, Map<number, Row>>();
  return {
    region,
    repo: REPOS[region],
    commit: gitHead(dir),
    dataVersion: versions.dataVersion,
    rows(file) {
      let rows = cache.get(file);
      if (!rows) {
        const path = join(dir, file);
        const list = existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Row[]) : [];
        rows = new Map(list.map((row) => [row.id, row]));
        cache.set(file, rows);
      }
      return rows;
    },
  };
}

export function text(row: Row | undefined, field: string): string | null {
  const value = row?.[field];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}
