/**
 * When each server refreshes MySekai: 05:00 and 17:00 server time. JP and KR run on UTC+9, CN and TW on UTC+8,
 * EN on US Pacific time with daylight saving (America/Los_Angeles), so EN's refresh moves an hour in UTC twice a year.
 */
import type { Region } from "../capture/regions.ts";

export const REGION_ZONES: Record<Region, string> = { jp: "Asia/Tokyo", kr: "Asia/Seoul", cn: "Asia/Shanghai", tw: "Asia/Taipei", en: "America/Los_Angeles" };
const REFRESH_HOURS = [5, 17];
const HOUR = 3_600_000;

const parts = new Map<string, Intl.DateTimeFormat>();
function wallClock(zone: string, t: number): { y: number; m: number; d: number; asUtc: number } {
  let format = parts.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
    parts.set(zone, format);
  }
  const p = Object.fromEntries(format.formatToParts(t).map((x) => [x.type, Number(x.value)]));
  return { y: p.year!, m: p.month!, d: p.day!, asUtc: Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) };
}

/** The instant of a wall time in `zone` (refresh hours never fall in a daylight-saving gap). */
function instantOf(zone: string, y: number, m: number, d: number, hour: number): number {
  const wall = Date.UTC(y, m - 1, d, hour);
  const guess = wall - (wallClock(zone, wall).asUtc - wall);
  return wall - (wallClock(zone, guess).asUtc - guess);
}

/** The region's latest refresh at or before `t`. */
export function refreshAtOrBefore(region: Region, t: number): number {
  const zone = REGION_ZONES[region];
  const candidates: number[] = [];
  for (const day of [t, t - 24 * HOUR]) {
    const { y, m, d } = wallClock(zone, day);
    for (const hour of REFRESH_HOURS) candidates.push(instantOf(zone, y, m, d, hour));
  }
  return Math.max(...candidates.filter((c) => c <= t));
}
