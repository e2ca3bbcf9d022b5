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
 * The rule's order and batches are here once (runRetentionRule), its statements and each batch's writes in
 * statements.ts; a store gives its runner of statements and its way of returning free pages (RetentionDialect):
 * SQLite's in sqlite.ts, PostgreSQL's in pg.ts.
 */
import { SAVE_JSON_FILE } from "../../archive/save-json-file.ts";
import { readArchiveBytes, type ArchiveStore } from "../../archive/store.ts";
import { logWarn } from "../../log.ts";
import type { RetentionCounts, RetentionRound } from "../../store/ports/retention.ts";
import { sha256Hex } from "../../sha256.ts";
import type { Statements } from "../dialect/statements.ts";
import { clearBodies, deleteExpired, EXPIRED_BODIES, type DeleteStep, type ExpiredBody } from "./statements.ts";

const ROW_BATCH = 500;
/** Candidate bodies and encrypted saves are large: fewer per batch. */
const BODY_BATCH = 32;

export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

const DELETE_STEPS: readonly DeleteStep[] = ["candidates", "reports", "deliveries", "jobs", "junkSaves"];

/** What a store gives the rule: its runner of the statements, each batch in a transaction of its own, and its free pages' return. */
export interface RetentionDialect {
  statements: Statements;
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
async function clearArchivedBodies(statements: Statements, archive: ArchiveStore, cutoff: number, maxBatches: number, cursor: SweepCursor): Promise<{ cleared: number; more: boolean }> {
  let cleared = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const rows = await statements.all(EXPIRED_BODIES, [cursor.resumeAfter, cutoff, BODY_BATCH]);
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
    if (verified.length > 0) cleared += await statements.transaction(() => clearBodies(verified));
    cursor.resumeAfter = rows[rows.length - 1]!.id;
    await yieldToEventLoop();
  }
  return { cleared, more: true };
}

/** Runs each step in batches until nothing is left or `maxBatches` per step ran; `more` says work remains. */
export async function runRetentionRule(
  dialect: RetentionDialect,
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
      const deleted = await dialect.statements.transaction(() => deleteExpired(step, cutoff, limit));
      counts[step] += deleted;
      await yieldToEventLoop();
      if (deleted < limit) break;
    }
  }
  const bodies = await clearArchivedBodies(dialect.statements, archive, cutoff, maxBatches, cursor);
  counts.clearedSaves = bodies.cleared;
  more ||= bodies.more;
  const vacuum = await dialect.vacuum(maxBatches);
  counts.vacuumedPages = vacuum.pages;
  return { counts, more: more || vacuum.more };
}

/** The sweep of one store's RetentionStore: the rule, resuming where its last run left off. */
export function retentionSweep(dialect: RetentionDialect, archive: ArchiveStore) {
  const cursor = newSweepCursor();
  return (cutoff: number, maxBatches = 20) => runRetentionRule(dialect, archive, cutoff, maxBatches, cursor);
}
