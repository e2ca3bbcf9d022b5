/**
 * Start-up with keys, written once for both stores (src/db/dialect/): jobs that waited for a key are due again,
 * and each unfinished or failed save job is judged again under this run's keys. (Reclaiming and releasing
 * running jobs: queue.ts.)
 */
import { notify, read, run, type Flow } from "../dialect/statements.ts";
import { NEW_WORK_CHANNEL } from "./queue.ts";

const RESUME = read<{ id: number }>(`UPDATE jobs SET state = 'pending', run_at = $1, attempts = 0, updated_at = $1 WHERE state = 'waiting_for_key' RETURNING id`);
/** The save's last two blocks (one for a one-block save); the size tells whole blocks from others. */
const UNFINISHED = read<{ id: number; implausible: boolean; tail: Uint8Array; size: number }>(
  `SELECT j.id, j.implausible, substr(s.encrypted, CASE WHEN length(s.encrypted) > 32 THEN length(s.encrypted) - 31 ELSE 1 END) AS "tail", s.size
   FROM jobs j JOIN saves s ON s.id = j.save_id WHERE j.state <> 'done' AND s.encrypted IS NOT NULL`,
  { implausible: "bool" },
);
const FLAG = read(`UPDATE jobs SET implausible = $2 WHERE id = $1`);
const AGAIN = read<{ id: number }>(`UPDATE jobs SET state = 'pending', attempts = 0, last_error = NULL, run_at = $2, updated_at = $2 WHERE id = $1 AND state = 'failed' RETURNING id`);

export function* resumeWaitingForKey(now: number): Flow<number> {
  const resumed = (yield* run(RESUME, [now])).length;
  if (resumed > 0) yield* notify(NEW_WORK_CHANNEL);
  return resumed;
}

/** A save that can be one under the keys runs in its turn, a failed one again; one that cannot waits behind every other. */
export function* rejudgePlausibility(mayBeSave: (tail: Uint8Array) => boolean, now: number): Flow<number> {
  let plausibleAgain = 0;
  for (const row of yield* run(UNFINISHED, [])) {
    const implausible = !(row.size % 16 === 0 && mayBeSave(row.tail));
    if (implausible === row.implausible) continue;
    yield* run(FLAG, [row.id, implausible]);
    if (!implausible) plausibleAgain += (yield* run(AGAIN, [row.id, now])).length;
  }
  if (plausibleAgain > 0) yield* notify(NEW_WORK_CHANNEL);
  return plausibleAgain;
}
