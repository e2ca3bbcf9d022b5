/**
 * Time zones: each game region's own (the default of maps, rare texts, pushes and pages), and times written
 * with their zone ("07:42 UTC+8"), so no time on a map, a push or a page is read in the wrong zone.
 */
import type { Region } from "../capture/regions.ts";

/** The zone a region's players live in (its game's daily reset follows it). */
export const REGION_ZONE: Record<Region, string> = {
  cn: "Asia/Shanghai",
  tw: "Asia/Taipei",
  kr: "Asia/Seoul",
  jp: "Asia/Tokyo",
  en: "America/Los_Angeles",
};

interface ZoneFormats {
  dateTime: Intl.DateTimeFormat;
  offset: Intl.DateTimeFormat;
}

/** Building a DateTimeFormat costs ~0.3 ms (a map draws the time four times); zones are a handful of settings. */
const zoneFormats = new Map<string, ZoneFormats>();
const MAX_CACHED_ZONES = 16;

function formatsFor(timeZone: string): ZoneFormats {
  const known = zoneFormats.get(timeZone);
  if (known) return known;
  const formats = {
    dateTime: new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }),
    offset: new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" }),
  };
  if (zoneFormats.size >= MAX_CACHED_ZONES) zoneFormats.clear();
  zoneFormats.set(timeZone, formats);
  return formats;
}

/** "UTC+8", "UTC-7", "UTC+5:30", "UTC": the zone's offset at that moment (summer time included). */
export function offsetLabel(date: Date, timeZone: string): string {
  const raw = formatsFor(timeZone).offset.formatToParts(date).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(raw);
  if (!match) return raw.replace("GMT", "UTC");
  if (match[2] === "00" && match[3] === "00") return "UTC";
  return `UTC${match[1]}${Number(match[2])}${match[3] === "00" ? "" : `:${match[3]}`}`;
}

export interface ZonedParts {
  date: string;
  /** "07:42" */
  time: string;
  /** "UTC+8" */
  zone: string;
}

/** The moment in `timeZone`: "2025-03-01", "08:30", "UTC+8". An unknown zone throws (settings are checked at start). */
export function zonedParts(date: Date, timeZone: string): ZonedParts {
  const parts = formatsFor(timeZone).dateTime.formatToParts(date);
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? "00";
  return { date: `${get("year")}-${get("month")}-${get("day")}`, time: `${get("hour")}:${get("minute")}`, zone: offsetLabel(date, timeZone) };
}

/** "2025-03-01 08:30 UTC+8" */
export function formatZonedTime(date: Date, timeZone: string): string {
  const { date: day, time, zone } = zonedParts(date, timeZone);
  return `${day} ${time} ${zone}`;
}

/** Whether Intl knows the zone (a setting is checked with it). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
