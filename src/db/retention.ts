/**
 * The retention rule: N days after they finished, reports (with their candidates and job), done save jobs,
 * deliveries of finished saves, and the encrypted copy, outputs model and stored JSON (the data API's
 * save.json.gz) of archived saves go (a later `reprocess` draws the model again from save.bin; the data API
 * builds the JSON on read). Save rows stay (their sha256 dedupes a resend) and failed save jobs stay (their
 * bytes may be the only copy of a save; `cli retry --failed` needs them), except those whose bytes cannot be a
 * save under the keys (`implausible`): such a save goes whole, with its job. Work goes in small batches with a
 * yield between them, so the HTTP thread never waits long, and the freed pages go back to the file system
 * (incremental vacuum).
 */
import { SAVE_JSON_FILE } from "../archive/save-json-file.ts";
import { readArchiveBytes, type ArchiveStore } from "../archive/store.ts";
import { logWarn } from "../log.ts";
import { deleteDoneSaveJobs } from "./jobs/index.ts";
import type { Db } from "./open.ts";
import { sha256Hex } from "../sha256.ts";

export interface RetentionCounts {
  /** Candidate bodies of expired reports. */
  candidates: number;
  /** Expired reports (their evaluate jobs go with them). */
  reports: number;
  /** Done jobs of saves. */
  jobs: number;
  /** Saves that failed and cannot be saves under the configured keys (junk), with their jobs. */
  junkSaves: number;
  deliveries: number;
  /** Archived saves whose encrypted column, outputs model and stored JSON were cleared (save.bin in the archive holds the bytes). */
  clearedSaves: number;
  /** Pages returned to the file system. */
  vacuumedPages: number;
}

const ROW_BATCH = 500;
/** Candidate bodies and encrypted saves are large: fewer per batch. */
const BODY_BATCH = 32;
const VACUUM_PAGES_PER_STEP = 512;

/** A report's job is finished (or gone): nothing will read its candidates again. */
const REPORT_FINISHED = `COALESCE(r.processed_at, r.received_at) < ?1
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.report_id = r.id AND j.state NOT IN ('done', 'failed'))`;
/** A save whose job is done (or gone): no stage will read its row again unless the owner reprocesses it. */
const SAVE_FINISHED = (saveId: string) => `NOT EXISTS (SELECT 1 FROM jobs j WHERE j.save_id = ${saveId} AND j.state != 'done')`;

const STEPS = {
  candidates: `DELETE FROM report_candidates WHERE rowid IN (
    SELECT c.rowid FROM report_candidates c JOIN reports r ON r.id = c.report_id WHERE ${REPORT_FINISHED} LIMIT ?2)`,
  reports: `DELETE FROM reports WHERE id IN (
    SELECT r.id FROM reports r WHERE ${REPORT_FINISHED}
      AND NOT EXISTS (SELECT 1 FROM report_candidates c WHERE c.report_id = r.id) LIMIT ?2)`,
  deliveries: `DELETE FROM deliveries WHERE id IN (
    SELECT d.id FROM deliveries d WHERE d.created_at < ?1 AND d.state != 'pending' AND ${SAVE_FINISHED("d.save_id")} LIMIT ?2)`,
  junkSaves: `DELETE FROM saves WHERE id IN (
    SELECT save_id FROM jobs WHERE implausible = 1 AND state = 'failed' AND save_id IS NOT NULL AND updated_at < ?1 LIMIT ?2)`,
} as const;

const sqlStep = (db: Db, sql: string) => {
  const statement = db.$client.query(sql);
  return (cutoff: number, limit: number) => statement.run(cutoff, limit).changes;
};

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Saves already warned about (archive copy missing), so a lost folder is logged once, not every sweep. */
const warnedSaves = new Set<number>();
/** Where the next run resumes, so saves that must keep their copy never starve the ones after them. */
let resumeAfter = 0;

interface ArchivedSave {
  id: number;
  sha256: string;
  relPath: string;
}

/**
 * Clears the encrypted copy, the outputs model and the stored JSON of saves archived before the cutoff whose
 * save.bin is in the archive with the same sha256. The file goes first: a crash before the commit leaves the save
 * selected again next time (a reader meanwhile builds the JSON), never a file that no sweep would remove.
 */
async function clearArchivedBodies(db: Db, archive: ArchiveStore, cutoff: number, maxBatches: number): Promise<{ cleared: number; more: boolean }> {
  const select = db.$client.query(
    `SELECT s.id, s.sha256, a.rel_path AS relPath FROM saves s JOIN archives a ON a.save_id = s.id
     WHERE s.id > ?1 AND s.encrypted IS NOT NULL AND a.created_at < ?2 AND ${SAVE_FINISHED("s.id")}
     ORDER BY s.id LIMIT ?3`,
  );
  const clear = db.$client.query("UPDATE saves SET encrypted = NULL, outputs = NULL WHERE id = ?1 AND sha256 = ?2");
  const unlist = db.$client.query(
    `UPDATE archives SET files = (SELECT json_group_array(value) FROM json_each(files) WHERE value != ?2) WHERE save_id = ?1 AND EXISTS (SELECT 1 FROM json_each(files) WHERE value = ?2)`,
  );
  let cleared = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const rows = select.all(resumeAfter, cutoff, BODY_BATCH) as ArchivedSave[];
    if (rows.length === 0) {
      resumeAfter = 0;
      return { cleared, more: false };
    }
    const verified: ArchivedSave[] = [];
    for (const row of rows) {
      const bytes = await readArchiveBytes(archive, row.relPath, "save.bin").catch(() => null);
      if (bytes !== null && sha256Hex(bytes) === row.sha256) verified.push(row);
      else if (!warnedSaves.has(row.id)) {
        warnedSaves.add(row.id);
        logWarn("GC", "archived save has no intact save.bin; its encrypted copy stays in the database", { save: row.id, archive: row.relPath });
      }
    }
    for (const row of verified) await archive.discard(row.relPath, SAVE_JSON_FILE);
    db.transaction(() => {
      for (const row of verified) {
        cleared += clear.run(row.id, row.sha256).changes;
        unlist.run(row.id, SAVE_JSON_FILE);
      }
    });
    resumeAfter = rows[rows.length - 1]!.id;
    await yieldToEventLoop();
  }
  return { cleared, more: true };
}

/** Runs each step in batches until nothing is left or `maxBatches` per step ran; `more` says work remains. */
export async function applyRetention(
  db: Db,
  archive: ArchiveStore,
  cutoff: number,
  maxBatches = 20,
): Promise<{ counts: RetentionCounts; more: boolean }> {
  const counts: RetentionCounts = { candidates: 0, reports: 0, jobs: 0, junkSaves: 0, deliveries: 0, clearedSaves: 0, vacuumedPages: 0 };
  let more = false;
  for (const step of ["candidates", "reports", "deliveries", "jobs", "junkSaves"] as const) {
    const run = step === "jobs" ? (cutoff: number, limit: number) => deleteDoneSaveJobs(db, cutoff, limit) : sqlStep(db, STEPS[step]);
    const limit = step === "candidates" || step === "junkSaves" ? BODY_BATCH : ROW_BATCH;
    for (let batch = 0; ; batch++) {
      if (batch === maxBatches) {
        more = true;
        break;
      }
      const deleted = run(cutoff, limit);
      counts[step] += deleted;
      await yieldToEventLoop();
      if (deleted < limit) break;
    }
  }
  const bodies = await clearArchivedBodies(db, archive, cutoff, maxBatches);
  counts.clearedSaves = bodies.cleared;
  more ||= bodies.more;
  const vacuum = await vacuumFreePages(db, maxBatches);
  counts.vacuumedPages = vacuum.pages;
  return { counts, more: more || vacuum.more };
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
