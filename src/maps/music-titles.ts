/** Song titles of MySekai music records, keyed by record id (one numbering across regions). */
import recordsJson from "./data/music-records.json" with { type: "json" };
import type { Locale } from "./catalog.ts";

/** The game servers whose titles the project keeps. */
export const TITLE_REGIONS = ["jp", "en", "cn", "tw", "kr"] as const;
export type TitleRegion = (typeof TITLE_REGIONS)[number];

/**
 * The locale's own region first, then jp (the data leaves out en/cn titles equal to jp). The other
 * regions come last: an id only one region knows (an en- or cn-only song) is still that song.
 */
const REGION_ORDER: Record<Locale, TitleRegion[]> = {
  ja: ["jp", "en", "cn", "tw", "kr"],
  en: ["en", "jp", "cn", "tw", "kr"],
  zh: ["cn", "jp", "en", "tw", "kr"],
};

const titles = new Map(
  Object.entries((recordsJson as { titles: Record<string, Partial<Record<TitleRegion, string>>> }).titles).map(
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
  return [...titles.values()].flatMap((entry) => TITLE_REGIONS.flatMap((r) => entry[r] ?? []));
}
