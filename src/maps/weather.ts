/**
 * The refresh's weather (MySekai "phenomena"), as the maps' title bar shows it: the game's name in the map's
 * language (data/weather.json, from the game's master data; a language without the name falls back as the
 * catalogue does, an id the data does not know is shown as "#id") and the 12-hour window it covers.
 */
import type { WeatherSchedule } from "../save/model.ts";
import weatherJson from "./data/weather.json" with { type: "json" };
import { pickName, type Locale, type LocalizedName } from "./catalog.ts";

const NAMES: Record<string, LocalizedName> = weatherJson.phenomena;

export interface RefreshWeather {
  phenomenaId: number;
  name: string;
  /** ISO bounds of the window. */
  startAt: string;
  endAt: string;
}

export function weatherName(phenomenaId: number, locale: Locale): string {
  const names = NAMES[String(phenomenaId)];
  return (names && pickName(names, locale)) ?? `#${phenomenaId}`;
}

/** The schedule row whose window holds `at` (the save's own time), or null when none does. */
export function refreshWeather(schedules: readonly WeatherSchedule[], at: number, locale: Locale): RefreshWeather | null {
  const row = schedules.find((s) => s.startAt <= at && at < s.endAt);
  if (!row) return null;
  return { phenomenaId: row.phenomenaId, name: weatherName(row.phenomenaId, locale), startAt: new Date(row.startAt).toISOString(), endAt: new Date(row.endAt).toISOString() };
}

/** Every weather name, for the font subset. */
export function allWeatherNames(): string[] {
  return Object.values(NAMES).flatMap((names) => Object.values(names));
}
