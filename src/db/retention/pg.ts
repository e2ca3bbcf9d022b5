/**
 * The retention rule (rules.ts) on a hub's PostgreSQL under the housekeeping lock (housekeeping-lock.ts): one
 * process sweeps at a time, the others skip.
 */
import type { ArchiveStore } from "../../archive/store.ts";
import type { RetentionStore } from "../../store/ports/retention.ts";
import { pgStatements } from "../dialect/pg.ts";
import { underHousekeepingLock } from "../pg/housekeeping-lock.ts";
import type { PgDb } from "../pg/open.ts";
import { retentionSweep } from "./rules.ts";

export function pgRetentionStore(db: PgDb, archive: ArchiveStore): RetentionStore {
  // Autovacuum returns PostgreSQL's free space; nothing to step through here.
  const sweep = retentionSweep({ statements: pgStatements(db), vacuum: async () => ({ pages: 0, more: false }) }, archive);
  return { sweep: (cutoff, maxBatches) => underHousekeepingLock(db, () => sweep(cutoff, maxBatches)) };
}
