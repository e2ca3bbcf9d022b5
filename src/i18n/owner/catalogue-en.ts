/**
 * Everything `catalogue update` and `catalogue show` tell the owner, in English, and the shape of the other
 * languages' (`CatalogueMessages`). A source's problem is a SourceError (src/catalogue/sources.ts) worded here.
 */
import type { UpdateCounts } from "../../catalogue/update.ts";

export const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

export const catalogueEn = {
  badArgument: (arg: string) => `not a source: ${JSON.stringify(arg.slice(0, 80))} (want <region>=<folder|url>, region one of jp, en, cn, tw, kr; a bare region only with --fetch)`,
  noSources: "name at least one server: <region>=<folder|url>, or --fetch",
  noFolder: (address: string) => `${address}: no such folder, nor a valid http(s) URL`,
  missing: (file: string) => `${file} is missing: a partial source is refused`,
  empty: (file: string) => `${file} holds no rows: a partial source is refused`,
  notJson: (file: string) => `${file} is not valid JSON (cut short?)`,
  notRows: (file: string) => `${file} is not a list of rows with numeric ids`,
  noDataVersion: "versions.json has no dataVersion",
  tooLarge: (file: string, cap: number) => `${file} is over ${mb(cap)}`,
  notAFile: (file: string) => `${file} is not a regular file`,
  duplicateIds: (file: string) => `${file} names one id twice`,
  httpStatus: (file: string, status: number) => `${file}: the server answered HTTP ${status}`,
  timedOut: (file: string, seconds: number) => `${file}: no complete answer within ${seconds} s`,
  unreachable: (file: string, reason: string) => `${file}: ${reason.slice(0, 160)}`,
  refused: (region: string, address: string, reason: string) => `${region} (${address}): ${reason}\nnothing changed: the catalogue in use stays`,
  generatorFailed: (reason: string) => `the master data cannot be made into a catalogue: ${reason.slice(0, 300)}\nnothing changed: the catalogue in use stays`,
  storedMalformed: (reason: string) => `the stored update is unreadable (${reason}); this update replaces it`,
  loaded: (region: string, version: string, address: string) => `${region}: master data ${version} from ${address}`,
  added: (c: UpdateCounts) =>
    `added ${c.resources} resource(s), ${c.sites} site(s), ${c.phenomena} weather(s), ${c.harvestFixtures} harvest point type(s), ${c.parties} birthday part(ies), ${c.songTitles} song title(s)`,
  glyphsMissing: (chars: string) =>
    `the bundled map font lacks ${[...chars].length} character(s) of the new names (${[...chars].slice(0, 40).join("")}): the PNG maps cannot draw them (blanks) until a release brings a font with them; summary.json, rare_resources.txt and the pushes carry them whole`,
  whenUsed: "stored: a running service uses it within a minute (every process of a hub), a starting one at once",
  showBuiltIn: (region: string, version: string) => `${region}: built-in, master data ${version}`,
  showUpdated: (region: string, version: string, address: string, at: string) => `${region}: updated ${at}, master data ${version} from ${address}`,
  showCounts: (resources: number, titles: number) => `the owner's update adds ${resources} resource(s) and ${titles} song(s) to the built-in catalogue`,
};

export type CatalogueMessages = typeof catalogueEn;
