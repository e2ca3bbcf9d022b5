/** The player's capture health on a hub's PostgreSQL: the same queries as SQLite's (src/http/watch/health-reads.ts). */
import { captureHealthOf, LAST_FAILURE, LATEST_CAPTURE, type CaptureHealthReads, type FailedRow, type LatestRow } from "./capture-health.ts";
import type { PgDb } from "../pg/open.ts";

export function pgCaptureHealthReads(db: PgDb): CaptureHealthReads {
  return {
    captureHealth: async (playerId) => {
      const [latest, failure] = await Promise.all([db.$client.unsafe(LATEST_CAPTURE, [playerId]), db.$client.unsafe(LAST_FAILURE, [playerId])]);
      return captureHealthOf(latest[0] as LatestRow | undefined, failure[0] as FailedRow | undefined);
    },
  };
}
