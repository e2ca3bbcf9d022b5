/** The maps group: the label language, drawing options and the time zone of map titles. */
import { resolve } from "node:path";
import type { Region } from "../capture/regions.ts";
import { ConfigError, flag, text, type Env } from "./parse.ts";

export type MapLocale = "zh" | "ja" | "en";

/** The language a player of each region reads; KR reads English until the song titles have Korean. */
const REGION_LOCALE: Record<Region, MapLocale> = { jp: "ja", en: "en", tw: "zh", cn: "zh", kr: "en" };
/** A save from no known game host (a capture tool that sends no URL) keeps the maps' first language. */
const UNKNOWN_REGION_LOCALE: MapLocale = "zh";

export interface MapsConfig {
  /** MAP_LOCALE, or null: each save's maps follow its region. */
  locale: MapLocale | null;
  showHarvested: boolean;
  /** MAP_COMMON_LABELS: "none" (default) labels finds and new songs only, "all" every drop as well. */
  commonLabels: "none" | "all";
  assetsDir: string | null;
  timeZone: string;
}

/** The language of one save's maps: MAP_LOCALE when set, else its region's. */
export function mapLocaleFor(maps: Pick<MapsConfig, "locale">, region: Region | null): MapLocale {
  return maps.locale ?? (region === null ? UNKNOWN_REGION_LOCALE : REGION_LOCALE[region]);
}

function locale(env: Env): MapLocale | null {
  const raw = text(env, "MAP_LOCALE")?.toLowerCase();
  if (raw === undefined || raw === null) return null;
  if (raw === "zh" || raw === "ja" || raw === "en") return raw;
  throw new ConfigError(`MAP_LOCALE must be zh, ja or en, got "${raw.slice(0, 20)}"`);
}

function commonLabels(env: Env): "none" | "all" {
  const raw = text(env, "MAP_COMMON_LABELS")?.toLowerCase() ?? "none";
  if (raw === "none" || raw === "all") return raw;
  throw new ConfigError(`MAP_COMMON_LABELS must be none or all, got "${raw.slice(0, 20)}"`);
}

function timeZone(env: Env): string {
  const zone = text(env, "MAP_TIMEZONE") ?? "UTC";
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
  } catch {
    throw new ConfigError(`MAP_TIMEZONE must be an IANA time zone such as Asia/Tokyo, got "${zone.slice(0, 40)}"`);
  }
  return zone;
}

export function mapsConfig(env: Env): MapsConfig {
  return {
    locale: locale(env),
    showHarvested: flag(env, "MAP_SHOW_HARVESTED", false),
    commonLabels: commonLabels(env),
    assetsDir: text(env, "ASSETS_DIR") ? resolve(text(env, "ASSETS_DIR")!) : null,
    timeZone: timeZone(env),
  };
}
