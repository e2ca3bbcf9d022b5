/** The retention rule (rules.ts) over SQLite: its statements run synchronously, and the incremental vacuum that gives freed pages back. */
import type { ArchiveStore } from "../../archive/store.ts";
import type { Db } from "../sqlite/open.ts";
import { sqliteStatements } from "../dialect/sqlite.ts";
import type { RetentionRound, RetentionStore } from "../../store/ports/retention.ts";
import { newSweepCursor, retentionSweep, runRetentionRule, yieldToEventLoop, type RetentionDialect } from "./rules.ts";

const VACUUM_PAGES_PER_STEP = 512;

const sqliteRetention = (db: Db): RetentionDialect => ({ statements: sqliteStatements(db), vacuum: (maxSteps) => vacuumFreePages(db, maxSteps) });

/** The cursor of applyRetention's callers (one sweeper per process before the store seam). */
const processCursor = newSweepCursor();

/** The rule over SQLite, as the sweep and `cli gc` ran it before the store seam. */
export const applyRetention = (db: Db, archive: ArchiveStore, cutoff: number, maxBatches = 20): Promise<RetentionRound> =>
  runRetentionRule(sqliteRetention(db), archive, cutoff, maxBatches, processCursor);

/** The retention store over SQLite: always this process's turn, since the instance lock admits one process per file. */
export const sqliteRetentionStore = (db: Db, archive: ArchiveStore): RetentionStore => ({ sweep: retentionSweep(sqliteRetention(db), archive) });

/**
 * Returns free pages (from this sweep or any other delete) to the file system a step at a time; the file
 * shrinks at the next WAL checkpoint.
 */
async function vacuumFreePages(db: Db, maxSteps: number): Promise<{ pages: number; more: boolean }> {
  const freePages = () => (db.$client.query("PRAGMA freelist_count").get() as { freelist_count: number }).freelist_count;
  const before = freePages();
  let left = before;
  for (let step = 0; step < maxSteps && left > 0; step++) {
    db.$client.query(`PRAGMA incremental_vacuum(${VACUUM_PAGES_PER_STEP})`).all();
    await yieldToEventLoop();
    const now = freePages();
    if (now >= left) return { pages: before - now, more: false }; // a file without auto_vacuum (its VACUUM failed)
    left = now;
  }
  return { pages: before - left, more: left > 0 };
}
