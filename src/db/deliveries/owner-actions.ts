/** The owner's actions on deliveries, written once for both stores (src/db/dialect/): steps of the job module's flows (jobs/owner-actions.ts). */
import { read, run, type Flow } from "../dialect/statements.ts";

const RETRY = `UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = $1, last_error = NULL WHERE state = 'failed'`;
const RETRY_ALL = read<{ saveId: number }>(`${RETRY} RETURNING save_id AS "saveId"`, { saveId: "int" });
const RETRY_OF_SAVE = read<{ saveId: number }>(`${RETRY} AND save_id = $2 RETURNING save_id AS "saveId"`, { saveId: "int" });
const RESET = read(`DELETE FROM deliveries WHERE save_id = $1`);

/** Failed deliveries (all, or one save's) are due again: the saves they belong to. */
export function* retryFailedDeliveries(now: number, saveId?: number): Flow<number[]> {
  const rows = yield* saveId === undefined ? run(RETRY_ALL, [now]) : run(RETRY_OF_SAVE, [now, saveId]);
  return rows.map((row) => row.saveId);
}

/** Owner resend: the save's deliveries start over, so its next notify stage pushes to every target again. */
export function* resetDeliveries(saveId: number): Flow<void> {
  yield* run(RESET, [saveId]);
}
