/**
 * The retention rule's statements and its batches' writes, written once for both stores (src/db/dialect/): the
 * deletes of reports and their candidates, deliveries, done save jobs and junk saves; the archived saves whose
 * encrypted copy may go; and the clearing of their copies. The tables' own texts come from their owners
 * (src/db/uploads/reports.ts, src/db/saves/rules.ts, src/db/jobs/queue.ts); each runs here under the rule's cutoff.
 */
import { SAVE_JSON_FILE } from "../../archive/save-json-file.ts";
import { read, run, type Flow, type Read } from "../dialect/statements.ts";
import { deleteDoneSaveJobs } from "../jobs/queue.ts";
import { saveSweeps } from "../saves/rules.ts";
import { reportSweeps } from "../uploads/reports.ts";

/** A report's job is finished (or gone): nothing will read its candidates again. */
const REPORT_FINISHED = `COALESCE(r.processed_at, r.received_at) < $1
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.report_id = r.id AND j.state NOT IN ('done', 'failed'))`;
/** A save whose job is done (or gone): no stage will read its row again unless the owner reprocesses it. */
const SAVE_FINISHED = (saveId: string) => `NOT EXISTS (SELECT 1 FROM jobs j WHERE j.save_id = ${saveId} AND j.state != 'done')`;

/** The row-deleting steps of the rule, in the order they run. */
export type DeleteStep = "candidates" | "reports" | "deliveries" | "jobs" | "junkSaves";

/** A delete of at most $2 rows expired before $1, each returning a row to count it by. */
const counted =
  (query: Read<unknown>) =>
  function* (cutoff: number, limit: number): Flow<number> {
    return (yield* run(query, [cutoff, limit])).length;
  };

/** Each step's batch: at most `limit` rows that expired before `cutoff`; how many went. The jobs' is their owner's. */
const DELETES: Record<DeleteStep, (cutoff: number, limit: number) => Flow<number>> = {
  candidates: counted(read((d) => `${reportSweeps.candidates(REPORT_FINISHED, "$2", d.rowKey("(report_id, seq)"))} RETURNING 1`)),
  reports: counted(read(`${reportSweeps.reports(REPORT_FINISHED, "$2")} RETURNING 1`)),
  deliveries: counted(
    read(`DELETE FROM deliveries WHERE id IN (
    SELECT d.id FROM deliveries d WHERE d.created_at < $1 AND d.state != 'pending' AND ${SAVE_FINISHED("d.save_id")} LIMIT $2) RETURNING 1`),
  ),
  jobs: deleteDoneSaveJobs,
  junkSaves: counted(read(`${saveSweeps.junk("$1", "$2")} RETURNING 1`)),
};

/** An archived save whose encrypted copy may go once save.bin is found intact. */
export interface ExpiredBody {
  id: number;
  sha256: string;
  relPath: string;
}

/** Archived saves past $2 with their encrypted copy and a finished job, ids after $1, in id order, at most $3. */
export const EXPIRED_BODIES = read<ExpiredBody>(
  `SELECT s.id, s.sha256, a.rel_path AS "relPath" FROM saves s JOIN archives a ON a.save_id = s.id
    WHERE s.id > $1 AND s.encrypted IS NOT NULL AND a.created_at < $2 AND ${SAVE_FINISHED("s.id")}
    ORDER BY s.id LIMIT $3`,
  { id: "int" },
);
// Finished again at the commit: an adoption or a reprocess may have sent it back to work since the select.
const CLEAR_BODY = read(`${saveSweeps.clearBody("$1", "$2", SAVE_FINISHED)} RETURNING 1`);
/** Drops the stored JSON ($2) from the save's ($1) archive files. */
const UNLIST = read((d) => `UPDATE archives SET files = ${d.jsonListWithout("files", "$2")} WHERE save_id = $1 AND ${d.jsonListHas("files", "$2")}`);

/** One batch of `step`: at most `limit` rows that expired before `cutoff`; how many went. */
export function* deleteExpired(step: DeleteStep, cutoff: number, limit: number): Flow<number> {
  return yield* DELETES[step](cutoff, limit);
}

/** Clears the encrypted copy and outputs of each save (if its sha256 still matches) and unlists its stored JSON; how many cleared. */
export function* clearBodies(saves: readonly ExpiredBody[]): Flow<number> {
  let cleared = 0;
  for (const save of saves) {
    cleared += (yield* run(CLEAR_BODY, [save.id, save.sha256])).length;
    yield* run(UNLIST, [save.id, SAVE_JSON_FILE]);
  }
  return cleared;
}
