/** Song titles of MySekai music records, keyed by record id (one numbering across regions). */
import recordsJson from "./data/music-records.json" with { type: "json" };
import type { Locale } from "./catalog.ts";

/** The game regions whose titles the project keeps: the ones a MAP_LOCALE names. */
export const TITLE_REGIONS = ["jp", "en", "cn"] as const;
export type TitleRegion = (typeof TITLE_REGIONS)[number];
/** The TW and KR titles, once the data has them, under their region or their language (read either way). */
type TitleKey = TitleRegion | "tw" | "kr" | "zh-Hant" | "ko";

/**
 * The locale's own region first, then jp (the data leaves out a title equal to jp's, so jp comes before any other region). The other
 * regions come last: an id only one region knows (an en- or cn-only song) is still that song.
 */
const REGION_ORDER: Record<Locale, TitleKey[]> = {
  ja: ["jp", "en", "cn", "tw", "kr"],
  en: ["en", "jp", "cn", "tw", "kr"],
  "zh-Hans": ["cn", "jp", "en", "tw", "kr"],
  "zh-Hant": ["tw", "zh-Hant", "jp", "cn", "en", "kr"],
  ko: ["kr", "ko", "jp", "en", "cn", "tw"],
};

const titles = new Map(
  Object.entries((recordsJson as { titles: Record<string, Partial<Record<TitleKey, string>>> }).titles).map(
    ([id, entry]) => [Number(id), entry],
  ),
);

/** The record's title in the locale's language, or null when the data does not know the id. */
export function musicRecordTitle(recordId: number, locale: Locale): string | null {
  const entry = titles.get(recordId);
  if (!entry) return null;
  for (const region of REGION_ORDER[locale]) {
    const title = entry[region];
    if (title) return title;
  }
  return null;
}

/** Every title the maps can show, for the font subset. */
export function allMusicTitles(): string[] {
  return [...titles.values()].flatMap((entry) => Object.values(entry).filter((title): title is string => typeof title === "string"));
}
