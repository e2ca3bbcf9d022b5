/**
 * The retention rule: N days after they finished, reports (with their candidates and job), done save jobs,
 * deliveries of finished saves, and the encrypted copy, outputs model and stored JSON (the data API's
 * save.json.gz) of archived saves go (a later `reprocess` draws the model again from save.bin; the data API
 * builds the JSON on read). Save rows stay (their sha256 dedupes a resend) and failed save jobs stay (their
 * bytes may be the only copy of a save; `cli retry --failed` needs them), except those whose bytes cannot be a
 * save under the keys (`implausible`): such a save goes whole, with its job. Work goes in small batches with a
 * yield between them, so the HTTP thread never waits long, and the freed pages go back to the file system
 * (incremental vacuum).
 *
 * The rule's order and batches are here once (runRetentionRule); each store gives its statements (RetentionSteps):
 * SQLite's in sqlite.ts, PostgreSQL's in pg.ts.
 */
import { SAVE_JSON_FILE } from "../../archive/save-json-file.ts";
import { readArchiveBytes, type ArchiveStore } from "../../archive/store.ts";
import { logWarn } from "../../log.ts";
import type { RetentionCounts, RetentionRound } from "../../store/ports/retention.ts";
import { sha256Hex } from "../../sha256.ts";
import { saveSweeps } from "../saves/rules.ts";
import { reportSweeps } from "../uploads/reports.ts";


/** A report's job is finished (or gone): nothing will read its candidates again. */
const REPORT_FINISHED = `COALESCE(r.processed_at, r.received_at) < $1
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.report_id = r.id AND j.state NOT IN ('done', 'failed'))`;
/** A save whose job is done (or gone): no stage will read its row again unless the owner reprocesses it. */
const SAVE_FINISHED = (saveId: string) => `NOT EXISTS (SELECT 1 FROM jobs j WHERE j.save_id = ${saveId} AND j.state != 'done')`;

/**
 * The rule's statements, written once in PostgreSQL's placeholders (SQLite runs them through sqliteText):
 * `candidateKey` is how a store names one candidate row (SQLite's rowid, PostgreSQL's (report_id, seq)).
 */
export function retentionStatements(candidateKey: "rowid" | "(report_id, seq)") {
  return {
    deletes: {
      candidates: reportSweeps.candidates(REPORT_FINISHED, "$2", candidateKey),
      reports: reportSweeps.reports(REPORT_FINISHED, "$2"),
      deliveries: `DELETE FROM deliveries WHERE id IN (
        SELECT d.id FROM deliveries d WHERE d.created_at < $1 AND d.state != 'pending' AND ${SAVE_FINISHED("d.save_id")} LIMIT $2)`,
      junkSaves: saveSweeps.junk("$1", "$2"),
    } satisfies Record<Exclude<DeleteStep, "jobs">, string>,
    expiredBodies: `SELECT s.id, s.sha256, a.rel_path AS "relPath" FROM saves s JOIN archives a ON a.save_id = s.id
      WHERE s.id > $1 AND s.encrypted IS NOT NULL AND a.created_at < $2 AND ${SAVE_FINISHED("s.id")}
      ORDER BY s.id LIMIT $3`,
    // Finished again at the commit: an adoption or a reprocess may have sent it back to work since the select.
    clearBody: saveSweeps.clearBody("$1", "$2", SAVE_FINISHED),
  };
}

export const ROW_BATCH = 500;
/** Candidate bodies and encrypted saves are large: fewer per batch. */
const BODY_BATCH = 32;

export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The row-deleting steps of the rule, in the order they run. */
export type DeleteStep = "candidates" | "reports" | "deliveries" | "jobs" | "junkSaves";
const DELETE_STEPS: readonly DeleteStep[] = ["candidates", "reports", "deliveries", "jobs", "junkSaves"];

/** An archived save whose encrypted copy may go once save.bin is found intact. */
export interface ExpiredBody {
  id: number;
  sha256: string;
  relPath: string;
}

/** One store's statements for the rule (SQLite's in sqlite.ts, PostgreSQL's in pg.ts); the rule's order and batches are runRetentionRule's. */
export interface RetentionSteps {
  /** Deletes at most `limit` rows of `step` that expired before `cutoff`; how many went. */
  delete(step: DeleteStep, cutoff: number, limit: number): Promise<number>;
  /** Archived saves past `cutoff` with their encrypted copy and a finished job, ids after `after`, in id order. */
  expiredBodies(after: number, cutoff: number, limit: number): Promise<ExpiredBody[]>;
  /** Clears the encrypted copy and outputs of each (if its sha256 still matches) and unlists the stored JSON, in one transaction; how many cleared. */
  clearBodies(saves: ExpiredBody[]): Promise<number>;
  /** Returns free pages to the file system, at most `maxSteps` steps. */
  vacuum(maxSteps: number): Promise<{ pages: number; more: boolean }>;
}

/** What one sweeper remembers between runs. */
export interface SweepCursor {
  /** Where the next run resumes, so saves that must keep their copy never starve the ones after them. */
  resumeAfter: number;
  /** Saves already warned about (archive copy missing), so a lost folder is logged once, not every sweep. */
  warned: Set<number>;
}

export const newSweepCursor = (): SweepCursor => ({ resumeAfter: 0, warned: new Set() });

/**
 * Clears the encrypted copy, the outputs model and the stored JSON of saves archived before the cutoff whose
 * save.bin is in the archive with the same sha256. The file goes first: a crash before the commit leaves the save
 * selected again next time (a reader meanwhile builds the JSON), never a file that no sweep would remove.
 */
async function clearArchivedBodies(steps: RetentionSteps, archive: ArchiveStore, cutoff: number, maxBatches: number, cursor: SweepCursor): Promise<{ cleared: number; more: boolean }> {
  let cleared = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const rows = await steps.expiredBodies(cursor.resumeAfter, cutoff, BODY_BATCH);
    if (rows.length === 0) {
      cursor.resumeAfter = 0;
      return { cleared, more: false };
    }
    const verified: ExpiredBody[] = [];
    for (const row of rows) {
      const bytes = await readArchiveBytes(archive, row.relPath, "save.bin").catch(() => null);
      if (bytes !== null && sha256Hex(bytes) === row.sha256) verified.push(row);
      else if (!cursor.warned.has(row.id)) {
        cursor.warned.add(row.id);
        logWarn("GC", "archived save has no intact save.bin; its encrypted copy stays in the database", { save: row.id, archive: row.relPath });
      }
    }
    for (const row of verified) await archive.discard(row.relPath, SAVE_JSON_FILE);
    cleared += await steps.clearBodies(verified);
    cursor.resumeAfter = rows[rows.length - 1]!.id;
    await yieldToEventLoop();
  }
  return { cleared, more: true };
}

/** Runs each step in batches until nothing is left or `maxBatches` per step ran; `more` says work remains. */
export async function runRetentionRule(
  steps: RetentionSteps,
  archive: ArchiveStore,
  cutoff: number,
  maxBatches: number,
  cursor: SweepCursor,
): Promise<RetentionRound> {
  const counts: RetentionCounts = { candidates: 0, reports: 0, jobs: 0, junkSaves: 0, deliveries: 0, clearedSaves: 0, vacuumedPages: 0 };
  let more = false;
  for (const step of DELETE_STEPS) {
    const limit = step === "candidates" || step === "junkSaves" ? BODY_BATCH : ROW_BATCH;
    for (let batch = 0; ; batch++) {
      if (batch === maxBatches) {
        more = true;
        break;
      }
      const deleted = await steps.delete(step, cutoff, limit);
      counts[step] += deleted;
      await yieldToEventLoop();
      if (deleted < limit) break;
    }
  }
  const bodies = await clearArchivedBodies(steps, archive, cutoff, maxBatches, cursor);
  counts.clearedSaves = bodies.cleared;
  more ||= bodies.more;
  const vacuum = await steps.vacuum(maxBatches);
  counts.vacuumedPages = vacuum.pages;
  return { counts, more: more || vacuum.more };
}
