/**
 * The queue's flows, written once for both stores (src/db/dialect/): claims, the poller's next due time, leases,
 * jobs entering the queue, a save sent back to draw again, and the housekeeping of start, stop and retention.
 * The stores run them (sqlite.ts, pg.ts), and so do the save and upload rules inside their own transactions.
 */
import { notify, read, run, type Flow } from "../dialect/statements.ts";
import { SUBSCRIPTION_KEEP_MS, subscribedPlayer } from "../owner/msr-subscriptions.ts";
import { claimedJob, subjectlessFailure, type ClaimedJob, type JobRow, type LeaseHolder } from "../../store/model/jobs.ts";
import { ENSURE_SAVE_JOB, enqueueSaveParams, enqueueSaveText, JOB_COLUMNS, JOB_KINDS, leaseHeld } from "./statements.ts";

/** The channel on which committed new jobs wake the pollers of every process (PostgreSQL's; SQLite's one process wakes its own). */
export const NEW_WORK_CHANNEL = "mysekai_jobs";

/**
 * The oldest due job (or one whose lease expired) under a fresh lease id ($1), the fence every later write of its
 * holder is checked against: a save runs through its stages before younger saves start. Jobs being retried come
 * after every fresh one (a failing job never holds back the saves queued behind it); among fresh ones, a save of a
 * player some bot subscribes to goes first; saves whose bytes cannot be one under the keys come after all, and not
 * at all while $4 is false (while a real save runs, junk must not take the CPU it renders on). One statement: on
 * PostgreSQL the row the subquery locked is the row updated, and claimers at once each skip the others' rows. It
 * reads the save's player too, which the runner's log lines name.
 */
const CLAIM = read<JobRow & { player: string | null }>(
  (d) => `UPDATE jobs SET state = 'running', lease_id = $1, lease_expires_at = $2, attempts = attempts + 1, updated_at = $3
   WHERE id = (
     SELECT id FROM jobs
     WHERE ((state IN ('pending', 'pending_retry') AND run_at <= $3) OR (state = 'running' AND lease_expires_at < $3)) AND implausible <= $4
     ORDER BY implausible, state = 'pending_retry', subscribed DESC, id LIMIT 1${d.skipLocked})
   RETURNING ${JOB_COLUMNS}, (SELECT player_id FROM saves WHERE saves.id = jobs.save_id) AS "player"`,
  JOB_KINDS,
);
const NEXT_DUE = read<{ at: number | null }>(`SELECT min(run_at) AS "at" FROM jobs WHERE state IN ('pending', 'pending_retry')`, { at: "int" });
const RENEW = read<{ id: number }>(`UPDATE jobs SET lease_expires_at = $4 WHERE ${leaseHeld(1)} RETURNING id`);
const HOLDS = read<{ id: number }>(`SELECT id FROM jobs WHERE ${leaseHeld(1)}`);

const FAIL_SUBJECTLESS = read(`UPDATE jobs SET state = $3, last_error = $4, lease_id = NULL, lease_expires_at = NULL, updated_at = $5 WHERE id = $1 AND lease_id = $2`);
const ENQUEUE_SAVE = read(enqueueSaveText("saves s WHERE s.id = $1"));
const ENQUEUE_REPORT = read(`INSERT INTO jobs (report_id, stage, run_at, created_at, updated_at) VALUES ($1, 'evaluate', $2, $2, $2)`);
const SAVE_JOB_STATE = read<{ state: string }>((d) => `SELECT state FROM jobs WHERE save_id = $1${d.forUpdate}`);
const FLAG_REDRAW = read(`UPDATE jobs SET rerun = TRUE, updated_at = $2 WHERE save_id = $1`);
const REQUEUE = read(
  `UPDATE jobs SET stage = 'generate', state = 'pending', run_at = $2, attempts = 0, notify = TRUE, rerun = FALSE, last_error = NULL,
     subscribed = ${subscribedPlayer("(SELECT player_id FROM saves WHERE saves.id = $1)", "$3")}, updated_at = $2
   WHERE save_id = $1`,
);
const RECLAIM = read<{ id: number }>(
  (d) => `UPDATE jobs SET state = 'pending', attempts = ${d.greatest("attempts - 1", "0")}, process_deaths = process_deaths + 1, lease_id = NULL, lease_expires_at = NULL, run_at = $1, updated_at = $1
   WHERE state = 'running' AND ($2 OR lease_expires_at < $1) RETURNING id`,
);
const RELEASE = read<{ id: number }>(
  (d) => `UPDATE jobs SET state = 'pending', attempts = ${d.greatest("attempts - 1", "0")}, lease_id = NULL, lease_expires_at = NULL, run_at = $1, updated_at = $1
   WHERE state = 'running' RETURNING id`,
);
const DELETE_DONE = read<{ id: number }>(`DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE save_id IS NOT NULL AND state = 'done' AND updated_at < $1 LIMIT $2) RETURNING id`);

export function* claim(now: number, leaseMs: number, plausibleOnly: boolean): Flow<ClaimedJob | null> {
  for (;;) {
    const leaseId = crypto.randomUUID();
    const [row] = yield* run(CLAIM, [leaseId, now + leaseMs, now, !plausibleOnly]);
    if (!row) return null;
    const job = claimedJob(row, leaseId, row.player);
    if (job) return job;
    // The schema allows such a row, though no writer makes one: it fails here once rather than on every attempt.
    const failure = subjectlessFailure(now);
    yield* run(FAIL_SUBJECTLESS, [row.id, leaseId, failure.state, failure.lastError, failure.updatedAt]);
  }
}

export function* nextDueAt(): Flow<number | null> {
  return (yield* run(NEXT_DUE, []))[0]?.at ?? null;
}

/** Extends a held lease; false when it is no longer held. */
export function* renewLease(holder: LeaseHolder, now: number, leaseMs: number): Flow<boolean> {
  return (yield* run(RENEW, [holder.jobId, holder.leaseId, now, now + leaseMs])).length === 1;
}

/** Whether `holder` holds its job at `now`. */
export function* holdsLease(holder: LeaseHolder, now: number): Flow<boolean> {
  return (yield* run(HOLDS, [holder.jobId, holder.leaseId, now])).length === 1;
}

/** A new save's first job, in the caller's transaction (the save and its job commit together), waking the pollers on commit. */
export function* enqueueSave(saveId: number, at: number, implausible: boolean): Flow<void> {
  yield* run(ENQUEUE_SAVE, enqueueSaveParams(saveId, at, implausible));
  yield* notify(NEW_WORK_CHANNEL);
}

export function* enqueueReport(reportId: number, at: number): Flow<void> {
  yield* run(ENQUEUE_REPORT, [reportId, at]);
  yield* notify(NEW_WORK_CHANNEL);
}

/**
 * The save's maps must be drawn again (it took a real player id): a job at rest goes back to generate (with a
 * push); a running one is flagged, and its holder sends it back to generate when it records the stage
 * (transitions.ts record). The row is locked first: the holder's record then sees the flag, or the job is at rest.
 */
export function* requeueForRedraw(saveId: number, now: number): Flow<void> {
  yield* run(ENSURE_SAVE_JOB, [saveId, now]);
  const [row] = yield* run(SAVE_JOB_STATE, [saveId]);
  if (row?.state === "running") {
    yield* run(FLAG_REDRAW, [saveId, now]);
    return;
  }
  yield* run(REQUEUE, [saveId, now, now - SUBSCRIPTION_KEEP_MS]);
  yield* notify(NEW_WORK_CHANNEL);
}

/**
 * Locks a save's job row (if it has one) for the rest of the transaction. Whoever writes a save's row and its job
 * in one transaction takes the job first, as a stage recording under its lease does: the other order deadlocks.
 */
export function* lockSaveJob(saveId: number): Flow<void> {
  yield* run(SAVE_JOB_STATE, [saveId]);
}

/**
 * At start-up, jobs of a process that died go back to the queue: due again at once, the attempt not held against
 * them, and from now on their tasks run in a process of their own (task-process.ts). `all`: every running job
 * (SQLite: its instance lock says no other process runs); else those whose lease expired (a hub's other processes
 * hold theirs). A save answered 200 is never failed because its host was killed.
 */
export function* reclaimOrphans(now: number, all: boolean): Flow<number> {
  return (yield* run(RECLAIM, [now, all])).length;
}

/** A clean shutdown: jobs still running after the grace go back to the queue as if never claimed (SQLite's one process held them all). */
export function* releaseRunning(now: number): Flow<number> {
  return (yield* run(RELEASE, [now])).length;
}

/** The retention rule's step for jobs: done save jobs finished before `cutoff`, at most `limit` of them. */
export function* deleteDoneSaveJobs(cutoff: number, limit: number): Flow<number> {
  return (yield* run(DELETE_DONE, [cutoff, limit])).length;
}
