/**
 * The data API's rate windows on each deployment, for tests/unit/rate-windows.contract.test.ts: one process on SQLite
 * counts in its memory (no other process shares its file), a hub's processes in PostgreSQL's api_rate_windows.
 */
import { pgDatabaseOfFile, pgHandles, type PreparedFixtureKind } from "./store-handles.ts";
import { memoryRateWindows } from "../../src/db/owner/memory-rate-windows.ts";
import type { RateWindows } from "../../src/store/ports/rate-windows.ts";
import { pgRateWindows } from "../../src/db/owner/pg-rate-windows.ts";

export { RateLimit } from "../../src/http/api/rate-limit.ts";
export { WINDOW_MS, type RateWindow, type RateWindows } from "../../src/store/ports/rate-windows.ts";

export interface RateWindowFixture {
  windows: RateWindows;
  /** Another process's windows: on a hub the same table, on SQLite there is no other process (null). */
  another: () => Promise<RateWindows | null>;
  close: () => Promise<void>;
}

export type RateWindowKind = PreparedFixtureKind<RateWindowFixture>;

export const sqliteRateWindows: RateWindowKind = {
  name: "sqlite",
  prepare: async () => {},
  open: async () => ({ windows: memoryRateWindows(), another: async () => null, close: async () => {} }),
};

/** One database for the file, emptied for each fixture. */
const pgDatabase = pgDatabaseOfFile();

export const postgresRateWindows: RateWindowKind = {
  name: "postgres",
  prepare: pgDatabase,
  open: async () => {
    const { db, another, close } = await pgHandles(await pgDatabase(), "api_rate_windows");
    return {
      windows: pgRateWindows(db),
      another: async () => pgRateWindows(await another()),
      close,
    };
  },
};
