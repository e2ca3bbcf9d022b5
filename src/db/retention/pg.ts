/**
 * The retention rule on a hub's PostgreSQL: the same statements as SQLite's (../retention.ts), with
 * runRetentionRule's order and batches, under the housekeeping lock (housekeeping-lock.ts): one process sweeps
 * at a time, the others skip.
 */
import { SAVE_JSON_FILE } from "../../archive/save-json-file.ts";
import type { ArchiveStore } from "../../archive/store.ts";
import type { RetentionStore } from "../../store/ports/retention.ts";
import { pgDeleteDoneSaveJobs } from "../jobs/pg-lifecycle.ts";
import { newSweepCursor, runRetentionRule, type DeleteStep, type ExpiredBody, type RetentionSteps } from "./rules.ts";
import { underHousekeepingLock } from "../pg/housekeeping-lock.ts";
import type { PgDb } from "../pg/open.ts";
import { saveSweeps } from "../saves/rules.ts";
import { reportSweeps } from "../uploads/reports.ts";

/** A report's job is finished (or gone): nothing will read its candidates again. */
const REPORT_FINISHED = `COALESCE(r.processed_at, r.received_at) < $1
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.report_id = r.id AND j.state NOT IN ('done', 'failed'))`;
/** A save whose job is done (or gone): no stage will read its row again unless the owner reprocesses it. */
const SAVE_FINISHED = (saveId: string) => `NOT EXISTS (SELECT 1 FROM jobs j WHERE j.save_id = ${saveId} AND j.state != 'done')`;

const DELETES: Record<Exclude<DeleteStep, "jobs">, string> = {
  candidates: reportSweeps.candidates(REPORT_FINISHED, "$2", "(report_id, seq)"),
  reports: reportSweeps.reports(REPORT_FINISHED, "$2"),
  deliveries: `DELETE FROM deliveries WHERE id IN (
    SELECT d.id FROM deliveries d WHERE d.created_at < $1 AND d.state != 'pending' AND ${SAVE_FINISHED("d.save_id")} LIMIT $2)`,
  junkSaves: saveSweeps.junk("$1", "$2"),
};

const EXPIRED_BODIES = `SELECT s.id, s.sha256, a.rel_path AS "relPath" FROM saves s JOIN archives a ON a.save_id = s.id
  WHERE s.id > $1 AND s.encrypted IS NOT NULL AND a.created_at < $2 AND ${SAVE_FINISHED("s.id")}
  ORDER BY s.id LIMIT $3`;

function pgSteps(db: PgDb): RetentionSteps {
  const client = db.$client;
  return {
    delete: async (step, cutoff, limit) => (step === "jobs" ? pgDeleteDoneSaveJobs(db, cutoff, limit) : (await client.unsafe(DELETES[step], [cutoff, limit])).count),
    expiredBodies: async (after, cutoff, limit) => (await client.unsafe(EXPIRED_BODIES, [after, cutoff, limit])) as unknown as ExpiredBody[],
    clearBodies: async (saves) =>
      saves.length === 0
        ? 0
        : client.begin(async (tx) => {
            let cleared = 0;
            for (const save of saves) {
              // Finished again at the commit: an adoption or a reprocess may have sent it back to work since the select.
              cleared += (await tx.unsafe(CLEAR_BODY, [save.id, save.sha256])).count;
              await tx`UPDATE archives SET files = files - ${SAVE_JSON_FILE}::text WHERE save_id = ${save.id} AND files @> jsonb_build_array(${SAVE_JSON_FILE}::text)`;
            }
            return cleared;
          }),
    // Autovacuum returns PostgreSQL's free space; nothing to step through here.
    vacuum: async () => ({ pages: 0, more: false }),
  };
}

const CLEAR_BODY = saveSweeps.clearBody("$1", "$2", SAVE_FINISHED);

export function pgRetentionStore(db: PgDb, archive: ArchiveStore): RetentionStore {
  const steps = pgSteps(db);
  const cursor = newSweepCursor();
  return {
    sweep: (cutoff, maxBatches = 20) => underHousekeepingLock(db, () => runRetentionRule(steps, archive, cutoff, maxBatches, cursor)),
  };
}
