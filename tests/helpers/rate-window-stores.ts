/**
 * The data API's rate windows on each deployment, for tests/unit/rate-windows.contract.test.ts: one process on SQLite
 * counts in its memory (no other process shares its file), a hub's processes in PostgreSQL's api_rate_windows.
 */
import { memoryRateWindows } from "../../src/http/api/rate-limit.ts";
import type { RateWindows } from "../../src/store/ports/rate-windows.ts";
import { openPostgres, type PgDb } from "../../src/db/pg/open.ts";
import { pgRateWindows } from "../../src/db/owner/pg-rate-windows.ts";
import { databaseForThisFile } from "./postgres.ts";

export { RateLimit } from "../../src/http/api/rate-limit.ts";
export { WINDOW_MS, type RateWindow, type RateWindows } from "../../src/store/ports/rate-windows.ts";

export interface RateWindowFixture {
  windows: RateWindows;
  /** Another process's windows: on a hub the same table, on SQLite there is no other process (null). */
  another: () => Promise<RateWindows | null>;
  close: () => Promise<void>;
}

export interface RateWindowKind {
  name: "sqlite" | "postgres";
  prepare: () => Promise<unknown>;
  open: () => Promise<RateWindowFixture>;
}

export const sqliteRateWindows: RateWindowKind = {
  name: "sqlite",
  prepare: async () => {},
  open: async () => ({ windows: memoryRateWindows(), another: async () => null, close: async () => {} }),
};

let pgUrl: Promise<string> | undefined;
const pgDatabase = () => (pgUrl ??= databaseForThisFile("migrated"));

export const postgresRateWindows: RateWindowKind = {
  name: "postgres",
  prepare: pgDatabase,
  open: async () => {
    const db = await openPostgres(await pgDatabase(), { maxConnections: 4 });
    await db.$client.unsafe("TRUNCATE api_rate_windows");
    const others: PgDb[] = [];
    return {
      windows: pgRateWindows(db),
      another: async () => {
        const other = await openPostgres(await pgDatabase(), { maxConnections: 4 });
        others.push(other);
        return pgRateWindows(other);
      },
      close: async () => void (await Promise.all([db, ...others].map((handle) => handle.$client.end()))),
    };
  },
};
