/**
 * Regenerates src/maps/data/music-records.json (music record id -> title per region) from a
 * music-records.json of the shape { about, sources, regions: { jp|en|cn|...: { [recordId]: { title } } } }
 * (the titles are already resolved per trackType there).
 *
 *   bun run scripts/music-records.ts path/to/music-records.json
 *
 * Keeps only the regions a MAP_LOCALE names (jp, en, cn) and drops an en/cn title equal to the jp one:
 * the lookup falls back to jp, so the result is the same and the file stays small.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { TITLE_REGIONS, type TitleRegion } from "../src/maps/music-titles.ts";

interface SourceFile {
  about: string;
  sources: { repo: string; commit: string; masterVersion: string; region: string }[];
  regions: Record<string, Record<string, { title: string }>>;
}

const sourcePath = process.argv[2];
if (!sourcePath) throw new Error("usage: bun run scripts/music-records.ts path/to/music-records.json");
const source = JSON.parse(readFileSync(sourcePath, "utf8")) as SourceFile;
const output = fileURLToPath(new URL("../src/maps/data/music-records.json", import.meta.url));

const titles = new Map<number, Partial<Record<TitleRegion, string>>>();
for (const region of TITLE_REGIONS) {
  for (const [id, record] of Object.entries(source.regions[region] ?? {})) {
    const entry = titles.get(Number(id)) ?? {};
    if (region === "jp" || record.title !== entry.jp) entry[region] = record.title;
    titles.set(Number(id), entry);
  }
}

const sources = [
  ...new Map(
    source.sources
      .filter((s) => (TITLE_REGIONS as readonly string[]).includes(s.region))
      .map((s) => [s.region, { region: s.region, repo: s.repo, commit: s.commit, masterVersion: s.masterVersion }]),
  ).values(),
];
const about =
  `${source.about} Copied by scripts/music-records.ts: regions ${TITLE_REGIONS.join(", ")} only; ` +
  "an en or cn title equal to the jp one is left out (the lookup falls back to jp).";
const rows = [...titles.entries()]
  .sort(([a], [b]) => a - b)
  .map(([id, entry]) => `    ${JSON.stringify(String(id))}: ${JSON.stringify(entry)}`);
const text =
  `{\n  "about": ${JSON.stringify(about)},\n  "sources": ${JSON.stringify(sources)},\n` +
  `  "titles": {\n${rows.join(",\n")}\n  }\n}\n`;
writeFileSync(output, text);
console.log(`${output}: ${titles.size} records, ${statSync(output).size} bytes`);
