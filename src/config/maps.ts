/** The maps group: the label language, drawing options and the time zone of map titles. */
import { resolve } from "node:path";
import { ConfigError, flag, text, type Env } from "./parse.ts";

export type MapLocale = "zh" | "ja" | "en";

export interface MapsConfig {
  locale: MapLocale;
  showHarvested: boolean;
  assetsDir: string | null;
  timeZone: string;
}

function locale(env: Env): MapLocale {
  const raw = (text(env, "MAP_LOCALE") ?? "zh").toLowerCase();
  if (raw === "zh" || raw === "ja" || raw === "en") return raw;
  throw new ConfigError(`MAP_LOCALE must be zh, ja or en, got "${raw.slice(0, 20)}"`);
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
    assetsDir: text(env, "ASSETS_DIR") ? resolve(text(env, "ASSETS_DIR")!) : null,
    timeZone: timeZone(env),
  };
}
