/** The retention rule (rules.ts) over SQLite: its statements, and the incremental vacuum that gives freed pages back. */
import { SAVE_JSON_FILE } from "../../archive/save-json-file.ts";
import type { ArchiveStore } from "../../archive/store.ts";
import { deleteDoneSaveJobs } from "../jobs/index.ts";
import type { Db } from "../sqlite/open.ts";
import { sqliteFlow, sqliteText } from "../dialect/sqlite.ts";
import type { RetentionRound, RetentionStore } from "../../store/ports/retention.ts";
import { newSweepCursor, retentionStatements, ROW_BATCH, runRetentionRule, yieldToEventLoop, type ExpiredBody, type RetentionSteps } from "./rules.ts";

const VACUUM_PAGES_PER_STEP = 512;

const STATEMENTS = retentionStatements("rowid");

/** SQLite's statements: each call one synchronous statement or transaction on the event loop's thread. */
function sqliteSteps(db: Db): RetentionSteps {
  const query = (text: string) => db.$client.query(sqliteText(text));
  const deletes = Object.fromEntries(Object.entries(STATEMENTS.deletes).map(([step, text]) => [step, query(text)])) as Record<keyof typeof STATEMENTS.deletes, ReturnType<typeof query>>;
  const select = query(STATEMENTS.expiredBodies);
  const clear = query(STATEMENTS.clearBody);
  const unlist = db.$client.query(
    `UPDATE archives SET files = (SELECT json_group_array(value) FROM json_each(files) WHERE value != ?2) WHERE save_id = ?1 AND EXISTS (SELECT 1 FROM json_each(files) WHERE value = ?2)`,
  );
  return {
    delete: async (step, cutoff, limit) => (step === "jobs" ? sqliteFlow(db, deleteDoneSaveJobs(cutoff, limit)) : deletes[step].run(cutoff, limit).changes),
    expiredBodies: async (after, cutoff, limit) => select.all(after, cutoff, limit) as ExpiredBody[],
    clearBodies: async (saves) =>
      db.transaction(() => {
        let cleared = 0;
        for (const save of saves) {
          cleared += clear.run(save.id, save.sha256).changes;
          unlist.run(save.id, SAVE_JSON_FILE);
        }
        return cleared;
      }),
    vacuum: (maxSteps) => vacuumFreePages(db, maxSteps),
  };
}

/** The cursor of applyRetention's callers (one sweeper per process before the store seam). */
const processCursor = newSweepCursor();

/** The rule over SQLite, as the sweep and `cli gc` ran it before the store seam. */
export const applyRetention = (db: Db, archive: ArchiveStore, cutoff: number, maxBatches = 20): Promise<RetentionRound> =>
  runRetentionRule(sqliteSteps(db), archive, cutoff, maxBatches, processCursor);

/** The retention store over SQLite: always this process's turn, since the instance lock admits one process per file. */
export function sqliteRetentionStore(db: Db, archive: ArchiveStore): RetentionStore {
  const steps = sqliteSteps(db);
  const cursor = newSweepCursor();
  return { sweep: (cutoff, maxBatches = 20) => runRetentionRule(steps, archive, cutoff, maxBatches, cursor) };
}

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
