/**
 * The retention rule on a hub's PostgreSQL: the same statements as SQLite's (sqlite.ts), with
 * runRetentionRule's order and batches, under the housekeeping lock (housekeeping-lock.ts): one process sweeps
 * at a time, the others skip.
 */
import { SAVE_JSON_FILE } from "../../archive/save-json-file.ts";
import type { ArchiveStore } from "../../archive/store.ts";
import type { RetentionStore } from "../../store/ports/retention.ts";
import { deleteDoneSaveJobs } from "../jobs/index.ts";
import { pgFlow } from "../dialect/pg.ts";
import { newSweepCursor, retentionStatements, runRetentionRule, type ExpiredBody, type RetentionSteps } from "./rules.ts";
import { underHousekeepingLock } from "../pg/housekeeping-lock.ts";
import type { PgDb } from "../pg/open.ts";

const STATEMENTS = retentionStatements("(report_id, seq)");

function pgSteps(db: PgDb): RetentionSteps {
  const client = db.$client;
  return {
    delete: async (step, cutoff, limit) => (step === "jobs" ? pgFlow(db, deleteDoneSaveJobs(cutoff, limit)) : (await client.unsafe(STATEMENTS.deletes[step], [cutoff, limit])).count),
    expiredBodies: async (after, cutoff, limit) => (await client.unsafe(STATEMENTS.expiredBodies, [after, cutoff, limit])) as unknown as ExpiredBody[],
    clearBodies: async (saves) =>
      saves.length === 0
        ? 0
        : client.begin(async (tx) => {
            let cleared = 0;
            for (const save of saves) {
              cleared += (await tx.unsafe(STATEMENTS.clearBody, [save.id, save.sha256])).count;
              await tx`UPDATE archives SET files = files - ${SAVE_JSON_FILE}::text WHERE save_id = ${save.id} AND files @> jsonb_build_array(${SAVE_JSON_FILE}::text)`;
            }
            return cleared;
          }),
    // Autovacuum returns PostgreSQL's free space; nothing to step through here.
    vacuum: async () => ({ pages: 0, more: false }),
  };
}

export function pgRetentionStore(db: PgDb, archive: ArchiveStore): RetentionStore {
  const steps = pgSteps(db);
  const cursor = newSweepCursor();
  return {
    sweep: (cutoff, maxBatches = 20) => underHousekeepingLock(db, () => runRetentionRule(steps, archive, cutoff, maxBatches, cursor)),
  };
}
