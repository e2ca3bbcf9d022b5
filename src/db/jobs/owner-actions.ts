/**
 * The owner's actions on the queue (CLI and status page), written once for both stores (src/db/dialect/): retry
 * what failed, run a save's stages again. Each is one transaction with its delivery changes, and wakes every
 * process's poller on commit (a hub's; SQLite's one process wakes its own).
 */
import { retryFailedDeliveries, resetDeliveries } from "../deliveries/owner-actions.ts";
import { notify, read, run, type Flow } from "../dialect/statements.ts";
import { NEW_WORK_CHANNEL } from "./queue.ts";
import { ENSURE_SAVE_JOB } from "./statements.ts";

const RETRY = `UPDATE jobs SET state = 'pending', run_at = $1, attempts = 0, process_deaths = 0, crashes = 0, last_error = NULL, updated_at = $1 WHERE state = 'failed'`;
const RETRY_ALL = read<{ id: number }>(`${RETRY} RETURNING id`);
const RETRY_OF_SAVE = read<{ id: number }>(`${RETRY} AND save_id = $2 RETURNING id`);
/** A finished save with a delivery due again goes back to notify to send it. */
const BACK_TO_NOTIFY = read(
  `UPDATE jobs SET stage = 'notify', state = 'pending', run_at = $1, attempts = 0, last_error = NULL, notify = TRUE, updated_at = $1
   WHERE save_id = ANY($2) AND state = 'done'`,
);
const SAVE_EXISTS = read<{ id: number }>(`SELECT id FROM saves WHERE id = $1`);
const REPROCESS = read<{ id: number }>(
  `UPDATE jobs SET stage = 'generate', state = 'pending', run_at = $2, attempts = 0, last_error = NULL, notify = $3, force_push = $3, rerun = FALSE, lease_id = NULL, updated_at = $2
   WHERE save_id = $1 AND state <> 'running' RETURNING id`,
);

/**
 * Failed jobs (all, or one save's) start their failed stage again, and failed deliveries are due again; a
 * finished save with such a delivery goes back to notify to send it.
 */
export function* retryFailed(now: number, saveId?: number): Flow<{ jobs: number; deliveries: number }> {
  const retried = (yield* saveId === undefined ? run(RETRY_ALL, [now]) : run(RETRY_OF_SAVE, [now, saveId])).length;
  const redelivered = yield* retryFailedDeliveries(now, saveId);
  const saveIds = [...new Set(redelivered)];
  if (saveIds.length > 0) yield* run(BACK_TO_NOTIFY, [now, saveIds]);
  if (retried + saveIds.length > 0) yield* notify(NEW_WORK_CHANNEL);
  return { jobs: retried, deliveries: redelivered.length };
}

/** Every stage of a save runs again; with `notify` its deliveries start over (a new push, sent even when its drops repeat the player's last push). */
export function* reprocess(saveId: number, notifyAgain: boolean, now: number): Flow<boolean> {
  if ((yield* run(SAVE_EXISTS, [saveId])).length > 0) yield* run(ENSURE_SAVE_JOB, [saveId, now]);
  const queued = (yield* run(REPROCESS, [saveId, now, notifyAgain])).length === 1;
  if (!queued) return false;
  if (notifyAgain) yield* resetDeliveries(saveId);
  yield* notify(NEW_WORK_CHANNEL);
  return true;
}
