/** Song titles of MySekai music records, keyed by record id (one numbering across regions). */
import { loadedMusic } from "../catalogue/loaded.ts";
import type { MusicFile } from "../catalogue/files.ts";
import type { Locale } from "./catalog.ts";

/** The game servers whose titles the project keeps. */
export const TITLE_REGIONS = ["jp", "en", "cn", "tw", "kr"] as const;
export type TitleRegion = (typeof TITLE_REGIONS)[number];

/** The server whose titles a map language shows. */
const REGION_OF_LOCALE: Record<Locale, TitleRegion> = { ja: "jp", en: "en", "zh-Hans": "cn", "zh-Hant": "tw", ko: "kr" };

/**
 * The locale's own region first, then jp (the data leaves out titles equal to jp), then the others: an id
 * only one region knows (an en-, cn-, tw- or kr-only song) is still that song.
 */
function regionOrder(locale: Locale): TitleRegion[] {
  const own = REGION_OF_LOCALE[locale];
  return [own, ...TITLE_REGIONS.filter((r) => r !== own)];
}

const titlesOf = (file: MusicFile) => ({ file, titles: new Map(Object.entries(file.titles).map(([id, entry]) => [Number(id), entry])) });
let indexed = titlesOf(loadedMusic());
/** The titles by id, rebuilt when the loaded catalogue is swapped (src/catalogue/loaded.ts). */
function titles(): Map<number, Partial<Record<TitleRegion, string>>> {
  const file = loadedMusic();
  if (indexed.file !== file) indexed = titlesOf(file);
  return indexed.titles;
}

/** The record's title in the locale's language, or null when the data does not know the id. */
export function musicRecordTitle(recordId: number, locale: Locale): string | null {
  const entry = titles().get(recordId);
  if (!entry) return null;
  for (const region of regionOrder(locale)) {
    const title = entry[region];
    if (title) return title;
  }
  return null;
}

/** Every title the maps can show, for the font subset. */
export function allMusicTitles(): string[] {
  return [...titles().values()].flatMap((entry) => Object.values(entry).filter((title): title is string => typeof title === "string"));
}
