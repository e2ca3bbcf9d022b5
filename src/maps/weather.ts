/**
 * The refresh's weather (MySekai "phenomena"), as the maps' title bar shows it: the game's name in the map's
 * language (the catalogue's weathers, from the five servers' master data; an id it does not know is shown as
 * "#id") and the 12-hour window it covers.
 */
import type { WeatherSchedule } from "../save/model.ts";
import { weatherName as catalogWeatherName, type Locale } from "./catalog.ts";

export interface RefreshWeather {
  phenomenaId: number;
  name: string;
  /** ISO bounds of the window. */
  startAt: string;
  endAt: string;
}

export function weatherName(phenomenaId: number, locale: Locale): string {
  return catalogWeatherName(phenomenaId, locale) ?? `#${phenomenaId}`;
}

/** The schedule row whose window holds `at` (the save's own time), or null when none does. */
export function refreshWeather(schedules: readonly WeatherSchedule[], at: number, locale: Locale): RefreshWeather | null {
  const row = schedules.find((s) => s.startAt <= at && at < s.endAt);
  if (!row) return null;
  return { phenomenaId: row.phenomenaId, name: weatherName(row.phenomenaId, locale), startAt: new Date(row.startAt).toISOString(), endAt: new Date(row.endAt).toISOString() };
}
