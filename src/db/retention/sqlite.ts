/** The retention rule (rules.ts) over SQLite: its statements, and the incremental vacuum that gives freed pages back. */
import { SAVE_JSON_FILE } from "../../archive/save-json-file.ts";
import type { ArchiveStore } from "../../archive/store.ts";
import { deleteDoneSaveJobs } from "../jobs/index.ts";
import type { Db } from "../open.ts";
import { saveSweeps } from "../saves/rules.ts";
import { reportSweeps } from "../uploads/reports.ts";
import type { RetentionRound, RetentionStore } from "../../store/ports/retention.ts";
import { newSweepCursor, ROW_BATCH, runRetentionRule, yieldToEventLoop, type ExpiredBody, type RetentionSteps } from "./rules.ts";

const VACUUM_PAGES_PER_STEP = 512;

/** A report's job is finished (or gone): nothing will read its candidates again. */
const REPORT_FINISHED = `COALESCE(r.processed_at, r.received_at) < ?1
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.report_id = r.id AND j.state NOT IN ('done', 'failed'))`;
/** A save whose job is done (or gone): no stage will read its row again unless the owner reprocesses it. */
const SAVE_FINISHED = (saveId: string) => `NOT EXISTS (SELECT 1 FROM jobs j WHERE j.save_id = ${saveId} AND j.state != 'done')`;

const STEPS = {
  candidates: reportSweeps.candidates(REPORT_FINISHED, "?2", "rowid"),
  reports: reportSweeps.reports(REPORT_FINISHED, "?2"),
  deliveries: `DELETE FROM deliveries WHERE id IN (
    SELECT d.id FROM deliveries d WHERE d.created_at < ?1 AND d.state != 'pending' AND ${SAVE_FINISHED("d.save_id")} LIMIT ?2)`,
  junkSaves: saveSweeps.junk("?1", "?2"),
} as const;

/** SQLite's statements: each call one synchronous statement or transaction on the event loop's thread. */
function sqliteSteps(db: Db): RetentionSteps {
  const deletes = Object.fromEntries(Object.entries(STEPS).map(([step, sql]) => [step, db.$client.query(sql)])) as Record<keyof typeof STEPS, ReturnType<Db["$client"]["query"]>>;
  const select = db.$client.query(
    `SELECT s.id, s.sha256, a.rel_path AS relPath FROM saves s JOIN archives a ON a.save_id = s.id
     WHERE s.id > ?1 AND s.encrypted IS NOT NULL AND a.created_at < ?2 AND ${SAVE_FINISHED("s.id")}
     ORDER BY s.id LIMIT ?3`,
  );
  // Finished again at the commit: an adoption or a reprocess may have sent it back to work since the select.
  const clear = db.$client.query(saveSweeps.clearBody("?1", "?2", SAVE_FINISHED));
  const unlist = db.$client.query(
    `UPDATE archives SET files = (SELECT json_group_array(value) FROM json_each(files) WHERE value != ?2) WHERE save_id = ?1 AND EXISTS (SELECT 1 FROM json_each(files) WHERE value = ?2)`,
  );
  return {
    delete: async (step, cutoff, limit) => (step === "jobs" ? deleteDoneSaveJobs(db, cutoff, limit) : deletes[step].run(cutoff, limit).changes),
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
