/**
 * The data API's per-minute counts on a hub's PostgreSQL (owner of api_rate_windows): one upsert a request, so
 * that requests spread over N processes are counted once, with the windows of memoryRateWindows (./memory-rate-windows.ts). The table is
 * UNLOGGED (drizzle/pg/0003): counts are worth no WAL flush per read, and a crash that empties it only resets them.
 * Each process deletes ended windows once a minute (the table holds the keys seen in the last minute or two).
 */
import { lt, sql } from "drizzle-orm";
import { WINDOW_MS, type RateWindows } from "../../store/ports/rate-windows.ts";
import { logWarn } from "../../log.ts";
import type { PgDb } from "../pg/open.ts";
import { apiRateWindows } from "../pg/schema.ts";

export function pgRateWindows(db: PgDb): RateWindows {
  let nextSweep = 0;
  return {
    count: async (key, now) => {
      if (now >= nextSweep) {
        nextSweep = now + WINDOW_MS;
        // Not on the request's path: a failed sweep is tried again a minute later.
        db.delete(apiRateWindows)
          .where(lt(apiRateWindows.windowStart, now - WINDOW_MS))
          .catch((error: unknown) => logWarn("API", "could not delete ended rate windows", { error: String(error).slice(0, 200) }));
      }
      // SET's expressions all read the row as it was, so both test the old window.
      const ended = sql`${apiRateWindows.windowStart} <= ${now - WINDOW_MS}`;
      const [row] = await db
        .insert(apiRateWindows)
        .values({ key, windowStart: now, count: 1 })
        .onConflictDoUpdate({
          target: apiRateWindows.key,
          set: {
            windowStart: sql`CASE WHEN ${ended} THEN ${now} ELSE ${apiRateWindows.windowStart} END`,
            count: sql`CASE WHEN ${ended} THEN 1 ELSE ${apiRateWindows.count} + 1 END`,
          },
        })
        .returning({ start: apiRateWindows.windowStart, count: apiRateWindows.count });
      return row!;
    },
  };
}
