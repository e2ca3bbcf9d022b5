/**
 * The characters the bundled subset font must cover (ASCII, UI strings, catalogue names, song titles);
 * shared by scripts/subset-font.ts and a coverage test.
 */
import { allCatalogNames } from "./catalog.ts";
import { allUiText } from "./i18n.ts";
import { allMusicTitles } from "./music-titles.ts";
import { allWeatherNames } from "./weather.ts";

function printableAscii(): string {
  let s = "";
  for (let c = 0x20; c < 0x7f; c++) s += String.fromCharCode(c);
  return s;
}

/** Sorted, de-duplicated characters (by code point). */
export function subsetCharacters(): string {
  const chars = new Set<string>([
    ...printableAscii(),
    ...allUiText(),
    ...allCatalogNames().join(""),
    ...allMusicTitles().join(""),
    ...allWeatherNames().join(""),
  ]);
  return [...chars].sort((a, b) => (a.codePointAt(0) ?? 0) - (b.codePointAt(0) ?? 0)).join("");
}
