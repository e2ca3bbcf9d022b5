/** The maps group: the label language, drawing options and the time zone of map titles, texts, pushes and pages. */
import { resolve } from "node:path";
import type { Region } from "../capture/regions.ts";
import { LOCALES, localeOf, type Locale } from "../i18n/locales.ts";
import { isTimeZone, REGION_ZONE } from "../i18n/zones.ts";
import { MAP_MAX_WIDTH_PX } from "../maps/limits.ts";
import { ConfigError, flag, number, text, type Env } from "./parse.ts";

export type MapLocale = Locale;

/** The language a player of each region reads: their server's own. */
const REGION_LOCALE: Record<Region, MapLocale> = { jp: "ja", en: "en", tw: "zh-Hant", cn: "zh-Hans", kr: "ko" };
/** A save from no known game host (a capture tool that sends no URL) is read as the maps' first users read: CN's. */
const UNKNOWN_REGION: Region = "cn";

export interface MapsConfig {
  /** MAP_LOCALE, or null: each save's maps follow its region. */
  locale: MapLocale | null;
  showHarvested: boolean;
  /** MAP_COMMON_LABELS: "none" (default) labels finds and new songs only, "all" every drop as well. */
  commonLabels: "none" | "all";
  assetsDir: string | null;
  /** MAP_TIMEZONE, or null: each save's times are in its region's zone. */
  timeZone: string | null;
  /** MAP_MAX_WIDTH_PX: maps are drawn at most this wide (the phone-screen cap by default; less draws faster, text smaller). */
  maxWidthPx: number;
  /** CATALOGUE_CHECK_SECONDS: how often a running process looks for the owner's catalogue update (at most a minute). */
  catalogueCheckMs: number;
}

/** The language of one save's maps: MAP_LOCALE when set, else its region's. */
export function mapLocaleFor(maps: Pick<MapsConfig, "locale">, region: Region | null): MapLocale {
  return maps.locale ?? REGION_LOCALE[region ?? UNKNOWN_REGION];
}

/** The zone of one save's times (maps, rare text, push, pages): MAP_TIMEZONE when set, else its region's. */
export function timeZoneFor(maps: Pick<MapsConfig, "timeZone">, region: Region | null): string {
  return maps.timeZone ?? REGION_ZONE[region ?? UNKNOWN_REGION];
}

function commonLabels(env: Env): "none" | "all" {
  const raw = text(env, "MAP_COMMON_LABELS")?.toLowerCase() ?? "none";
  if (raw === "none" || raw === "all") return raw;
  throw new ConfigError((m) => m.noneOrAll("MAP_COMMON_LABELS", raw.slice(0, 20)));
}

/** A language setting (MAP_LOCALE, PAGE_LOCALE): one of the five, `zh` read as zh-Hans; unset → null. */
export function localeSetting(env: Env, name: string): Locale | null {
  const raw = text(env, name);
  if (raw === null) return null;
  const locale = localeOf(raw);
  if (locale === null || !/^[a-z]{2}([-_][a-z]{2,4})?$/i.test(raw)) {
    throw new ConfigError((m) => m.locale(name, LOCALES.join(", "), raw.slice(0, 20)));
  }
  return locale;
}

function timeZone(env: Env): string | null {
  const zone = text(env, "MAP_TIMEZONE");
  if (zone === null) return null;
  if (!isTimeZone(zone)) throw new ConfigError((m) => m.timeZone("MAP_TIMEZONE", zone.slice(0, 40)));
  return zone;
}

export function mapsConfig(env: Env): MapsConfig {
  return {
    locale: localeSetting(env, "MAP_LOCALE"),
    showHarvested: flag(env, "MAP_SHOW_HARVESTED", false),
    commonLabels: commonLabels(env),
    assetsDir: text(env, "ASSETS_DIR") ? resolve(text(env, "ASSETS_DIR")!) : null,
    timeZone: timeZone(env),
    maxWidthPx: number(env, "MAP_MAX_WIDTH_PX", MAP_MAX_WIDTH_PX, 100, MAP_MAX_WIDTH_PX),
    catalogueCheckMs: Math.round(number(env, "CATALOGUE_CHECK_SECONDS", 30, 0.1, 60, false) * 1000),
  };
}
