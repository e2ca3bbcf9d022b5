/**
 * Regenerates src/maps/data/catalog.json and src/maps/data/music-records.json from local checkouts of the five
 * servers' public master-data repositories (see src/catalogue/master-data/curation.ts for their names; `npm run cli -- catalogue update` runs the same generator for an owner's update):
 *
 *   bun run scripts/master-data.ts jp=../sekai-master-db-diff en=../sekai-master-db-en-diff \
 *     cn=../sekai-master-db-cn-diff tw=../sekai-master-db-tc-diff kr=../sekai-master-db-kr-diff
 *
 * Each path is a git checkout (its HEAD commit is written into the files); the files it needs are versions.json,
 * mysekai*.json, materials.json, musics.json, musicSoundTracks.json, gameCharacters.json, gameCharacterUnits.json,
 * birthdayParties.json and birthdayPartyDeliveryTotalRewards.json, so a sparse checkout of those is enough. Nothing
 * reads the checkouts at run or test time: the JSON written here is committed. Then run scripts/subset-font.ts (new names may need new glyphs).
 */
import { statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildCatalogue } from "../src/catalogue/master-data/catalogue.ts";
import { buildMusicRecords } from "../src/catalogue/master-data/music.ts";
import { unusedTranslations, type Servers } from "../src/catalogue/master-data/names.ts";
import { loadServer, REGIONS, type Region } from "../src/catalogue/master-data/read.ts";

const dirs = new Map<string, string>();
for (const arg of process.argv.slice(2)) {
  const [region, dir] = arg.split("=", 2) as [string, string | undefined];
  if (!dir || !(REGIONS as readonly string[]).includes(region)) throw new Error(`unknown argument ${arg}: want region=path`);
  dirs.set(region, dir);
}
const missing = REGIONS.filter((r) => !dirs.has(r));
if (missing.length) throw new Error(`missing ${missing.map((r) => `${r}=path`).join(" ")}`);
const servers = Object.fromEntries(REGIONS.map((r: Region) => [r, loadServer(r, dirs.get(r)!)])) as Servers;

const dataDir = (name: string) => fileURLToPath(new URL(`../src/maps/data/${name}`, import.meta.url));
const catalogue = buildCatalogue(servers);
writeFileSync(dataDir("catalog.json"), `${JSON.stringify(catalogue, null, 1)}\n`);
const music = buildMusicRecords(servers);
writeFileSync(dataDir("music-records.json"), music.text);

console.log(`catalog.json: ${catalogue.sites.length} sites, ${catalogue.resources.length} resources, ${statSync(dataDir("catalog.json")).size} bytes`);
console.log(`music-records.json: ${music.count} records, ${statSync(dataDir("music-records.json")).size} bytes`);
const unused = unusedTranslations();
if (unused.length) console.warn(`curation.ts names master data now has (delete them): ${unused.join(", ")}`);
