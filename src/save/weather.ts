/**
 * Weather (MySekai "phenomena") schedule rows.
 *
 * The game sends top-level `mysekaiPhenomenaSchedules` rows of
 * `{ mysekaiRefreshTimePeriodId: 1 | 2, scheduleDate: <ms>, mysekaiPhenomenaId }`: scheduleDate
 * anchors the game day and each period is a 12-hour half of it, so a row covers
 * [scheduleDate + (period - 1) * 12h, + 12h). Rows already carrying explicit bounds
 * (`scheduleStartAt`/`scheduleEndAt` or `startAt`/`endAt`) are accepted as they are.
 */
import type { WeatherSchedule } from "./model.ts";
import { asRecord, readInteger, type RecordValue } from "./coerce.ts";
import { cappedRows, SAVE_LIMITS } from "./limits.ts";

export const REFRESH_PERIOD_MS = 12 * 60 * 60 * 1000;

function readBounds(row: RecordValue): { startAt: number; endAt: number } | null {
  const scheduleDate = readInteger(row.scheduleDate);
  const period = readInteger(row.mysekaiRefreshTimePeriodId);
  if (scheduleDate !== null && period !== null && period >= 1) {
    const startAt = scheduleDate + (period - 1) * REFRESH_PERIOD_MS;
    return { startAt, endAt: startAt + REFRESH_PERIOD_MS };
  }
  const startAt = readInteger(row.scheduleStartAt ?? row.startAt);
  const endAt = readInteger(row.scheduleEndAt ?? row.endAt);
  if (startAt !== null && endAt !== null && endAt > startAt) return { startAt, endAt };
  return null;
}

/** Reads the schedule rows; malformed rows are skipped. Result is sorted by start time. SaveLimitError past the row cap. */
export function readWeather(rows: unknown): WeatherSchedule[] {
  const list = cappedRows(rows, SAVE_LIMITS.weatherRows, "weather rows");
  const schedules: WeatherSchedule[] = [];
  for (const item of list) {
    const row = asRecord(item);
    if (row === null) continue;
    const phenomenaId = readInteger(row.mysekaiPhenomenaId);
    const bounds = readBounds(row);
    if (phenomenaId === null || bounds === null) continue;
    schedules.push({ phenomenaId, ...bounds });
  }
  return schedules.sort((a, b) => a.startAt - b.startAt);
}
