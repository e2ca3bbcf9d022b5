/** `catalogue update` and `catalogue show`: the owner follows the game's master data without a release (src/catalogue/). */
import type { ParsedCommand } from "./cli-args.ts";
import { UsageError } from "./cli-args.ts";
import { builtInCatalogue, parseOwnerCatalogue } from "./catalogue/loaded.ts";
import { loadSource, parseSources, shownAddress, SourceError } from "./catalogue/sources.ts";
import { buildUpdate } from "./catalogue/update.ts";
import type { OwnerCatalogue } from "./catalogue/files.ts";
import type { Server } from "./catalogue/master-data/read.ts";
import { subsetCharacters } from "./maps/font-coverage.ts";
import type { CatalogueRecords } from "./store/ports/owner.ts";
import { ownerLocaleOf } from "./config/owner-locale.ts";
import { catalogueMessages } from "./i18n/owner/index.ts";

const locale = ownerLocaleOf();
const said = catalogueMessages(locale);

async function previousUpdate(records: CatalogueRecords): Promise<OwnerCatalogue | null> {
  const stored = await records.read();
  if (stored === null) return null;
  try {
    return parseOwnerCatalogue(stored.text);
  } catch (error) {
    console.warn(said.storedMalformed((error as Error).message));
    return null;
  }
}

async function update(records: CatalogueRecords, { values, positionals }: ParsedCommand): Promise<number> {
  let addresses;
  try {
    addresses = parseSources(positionals, values.fetch === true);
  } catch (error) {
    if (error instanceof SourceError) throw new UsageError(error.in(locale));
    throw error;
  }
  // Every source read and checked before anything is built: one broken source changes nothing.
  const loaded = await Promise.allSettled([...addresses].map(([region, address]) => loadSource(region, address)));
  const given: Server[] = [];
  let refused = false;
  for (const [index, [region, address]] of [...addresses].entries()) {
    const result = loaded[index]!;
    if (result.status === "fulfilled") {
      given.push(result.value);
      console.log(said.loaded(region, result.value.dataVersion, result.value.repo));
    } else {
      refused = true;
      const reason = result.reason instanceof SourceError ? result.reason.in(locale) : result.reason instanceof Error ? result.reason.message : String(result.reason);
      console.error(said.refused(region, shownAddress(address), reason));
    }
  }
  if (refused) return 1;
  let built;
  try {
    built = buildUpdate({ given, builtIn: builtInCatalogue(), previous: await previousUpdate(records), now: new Date() });
  } catch (error) {
    console.error(said.generatorFailed(error instanceof Error ? error.message : String(error)));
    return 1;
  }
  await records.write(JSON.stringify(built.owner));
  console.log(said.added(built.added));
  const uncovered = uncoveredCharacters(built.owner);
  if (uncovered.length > 0) console.warn(said.glyphsMissing(uncovered));
  console.log(said.whenUsed);
  return 0;
}

/** Characters of the update's names the bundled map font (subset to the built-in's names) lacks. */
function uncoveredCharacters(owner: OwnerCatalogue): string {
  const covered = new Set(subsetCharacters());
  const names = [...owner.catalog.sites, ...owner.catalog.resources, ...owner.catalog.phenomena].flatMap((entry) => Object.values(entry.name));
  const titles = Object.values(owner.music.titles).flatMap((entry) => Object.values(entry));
  return [...new Set([...names, ...titles].join(""))].filter((c) => !covered.has(c) && c.trim() !== "").join("");
}

async function show(records: CatalogueRecords): Promise<number> {
  const owner = await previousUpdate(records);
  const { catalog } = builtInCatalogue();
  for (const builtIn of catalog.masterData) {
    const updated = owner?.catalog.masterData.find((m) => m.region === builtIn.region);
    console.log(
      updated
        ? said.showUpdated(updated.region, updated.dataVersion, updated.repo, updated.updatedAt ?? "?")
        : said.showBuiltIn(builtIn.region, builtIn.dataVersion),
    );
  }
  if (owner) console.log(said.showCounts(owner.catalog.resources.length, Object.keys(owner.music.titles).length));
  return 0;
}

export function catalogueCommand(records: CatalogueRecords, command: ParsedCommand): Promise<number> {
  return command.name === "catalogue update" ? update(records, command) : show(records);
}
