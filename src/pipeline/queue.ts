/**
 * The job queue on SQLite: atomic claim with a fenced lease, transitions that only the lease holder may make,
 * backoff with jitter, and the owner operations (retry, reprocess). Knows nothing of what a stage does.
 */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { resetDeliveries, retryFailedDeliveries } from "../db/deliveries.ts";
import type { Db, Tx } from "../db/open.ts";
import { ensureSaveJob } from "../db/saves.ts";
import { jobs, saves, type JobStage } from "../db/schema.ts";

type Job = typeof jobs.$inferSelect;

export type SaveSubject = { kind: "save"; saveId: number };
export type ReportSubject = { kind: "report"; reportId: number };
/** What a job works on: a save (generate → notify) or a report (evaluate). */
export type JobSubject = SaveSubject | ReportSubject;

/** A job as its lease holder sees it; `subject` says which kind of job it is. */
export interface ClaimedJob<S extends JobSubject = JobSubject> {
  id: number;
  leaseId: string;
  stage: JobStage;
  /** This attempt's number, counted by the claim. */
  attempts: number;
  /** Whether the notify stage pushes (a reprocess without --notify does not). */
  notify: boolean;
  /** Push even when the drops repeat the player's last push (reprocess --notify). */
  forcePush: boolean;
  /** The error of the previous attempt (the timeout policy reads it). */
  lastError: string | null;
  /** The save's bytes cannot be one under the keys: the stage fails in microseconds, holding next to nothing. */
  implausible: boolean;
  /** The service died while this job ran before: its tasks run in a process of their own. */
  isolated: boolean;
  /** Deaths in a row of those processes so far. */
  crashes: number;
  subject: S;
}

export class LeaseLostError extends Error {
  constructor(jobId: number) {
    super(`job ${jobId} lost its lease`);
  }
}

/**
 * Claims the oldest due job (or one whose lease expired) in one UPDATE … RETURNING: a save runs through its
 * stages before younger saves start. Jobs being retried come after every fresh one: a failing job never
 * holds back the saves queued behind it; saves whose bytes cannot be one under the keys come after all, and
 * not at all with `plausibleOnly` (while a real save runs, junk must not take the CPU it renders on).
 */
export function claimJob(db: Db, now: number, leaseMs: number, plausibleOnly = false): ClaimedJob | null {
  for (;;) {
    const leaseId = crypto.randomUUID();
    const row = db.$client
      .query(
        `UPDATE jobs SET state = 'running', lease_id = ?1, lease_expires_at = ?2, attempts = attempts + 1, updated_at = ?3
         WHERE id = (
           SELECT id FROM jobs
           WHERE ((state IN ('pending', 'pending_retry') AND run_at <= ?3) OR (state = 'running' AND lease_expires_at < ?3))
             AND implausible <= ?4
           ORDER BY implausible, state = 'pending_retry', id LIMIT 1)
         RETURNING id`,
      )
      .get(leaseId, now + leaseMs, now, plausibleOnly ? 0 : 1) as { id: number } | null;
    if (!row) return null;
    const job = db.select().from(jobs).where(eq(jobs.id, row.id)).get();
    if (!job) return null;
    const subject = subjectOf(job);
    if (subject) return { id: job.id, leaseId, stage: job.stage, attempts: job.attempts, notify: job.notify, forcePush: job.forcePush, lastError: job.lastError, implausible: job.implausible, isolated: job.processDeaths > 0, crashes: job.crashes, subject };
    // The schema allows such a row, though no writer makes one: it fails here once rather than on every attempt.
    db.update(jobs)
      .set({ state: "failed", lastError: "job has no single subject (save_id xor report_id)", leaseId: null, leaseExpiresAt: null, updatedAt: now })
      .where(and(eq(jobs.id, job.id), eq(jobs.leaseId, leaseId)))
      .run();
  }
}

function subjectOf(job: Job): JobSubject | null {
  if (job.saveId !== null && job.reportId === null) return { kind: "save", saveId: job.saveId };
  if (job.reportId !== null && job.saveId === null) return { kind: "report", reportId: job.reportId };
  return null;
}

/** Extends a running job's lease; false when another holder took it over. */
export function renewLease(db: Db, job: ClaimedJob, now: number, leaseMs: number): boolean {
  const result = db
    .update(jobs)
    .set({ leaseExpiresAt: now + leaseMs })
    .where(and(eq(jobs.id, job.id), eq(jobs.leaseId, job.leaseId), eq(jobs.state, "running")))
    .returning({ id: jobs.id }).all();
  return result.length === 1;
}

type Transition = Partial<Pick<Job, "stage" | "state" | "runAt" | "attempts" | "lastError" | "notify" | "forcePush" | "rerun" | "processDeaths" | "crashes">>;

/** Applies a transition only while the lease is ours; throws LeaseLostError otherwise (rolling back `tx`). */
export function transition(tx: Tx, job: ClaimedJob, change: Transition, now: number): void {
  const result = tx
    .update(jobs)
    .set({ processDeaths: 0, crashes: 0, ...change, leaseId: null, leaseExpiresAt: null, updatedAt: now })
    .where(and(eq(jobs.id, job.id), eq(jobs.leaseId, job.leaseId)))
    .returning({ id: jobs.id }).all();
  if (result.length !== 1) throw new LeaseLostError(job.id);
}

export function advanceTo(tx: Tx, job: ClaimedJob, stage: JobStage, now: number): void {
  transition(tx, job, { stage, state: stage === "done" ? "done" : "pending", runAt: now, attempts: 0, lastError: null }, now);
}

/**
 * A save that took a real player id while this stage ran (`rerun`) goes back to generate, since its maps show
 * the id; the flag is read and cleared under the lease, in the transaction that records the stage.
 */
export function rerunIfFlagged(tx: Tx, job: ClaimedJob, now: number): boolean {
  const row = tx.select({ rerun: jobs.rerun }).from(jobs).where(and(eq(jobs.id, job.id), eq(jobs.leaseId, job.leaseId))).get();
  if (!row) throw new LeaseLostError(job.id);
  if (!row.rerun) return false;
  transition(tx, job, { stage: "generate", state: "pending", runAt: now, attempts: 0, lastError: null, notify: true, rerun: false }, now);
  return true;
}

/** Exponential backoff from the configured steps with ±20 % jitter; null when retries are used up. */
export function backoffDelay(attempts: number, steps: readonly number[], random = Math.random): number | null {
  const step = steps[attempts - 1];
  if (step === undefined) return null;
  return Math.round(step * (0.8 + random() * 0.4));
}

export function retryOrFail(tx: Tx, job: ClaimedJob, error: string, steps: readonly number[], now: number): "retry" | "failed" {
  const delay = backoffDelay(job.attempts, steps);
  if (delay === null) {
    transition(tx, job, { state: "failed", lastError: error }, now);
    return "failed";
  }
  transition(tx, job, { state: "pending_retry", runAt: now + delay, lastError: error }, now);
  return "retry";
}

/** Deaths in a row of a job's own task process that park it: a save that crashes whatever runs it. */
export const POISON_CRASHES = 3;

/**
 * At start-up every `running` job belongs to a service that died without shutting down (a clean shutdown
 * releases its jobs, releaseRunning). Nothing says whether the host killed it or the job did, so the job is
 * due again at once, the attempt is not held against it, and from now on its tasks run in a process of their
 * own (task-process.ts): a job that kills that process is seen doing so (afterTaskProcessDied), while the
 * service dying again costs the job nothing. A save answered 200 is never failed because its host was killed.
 */
export function reclaimOrphans(db: Db, now: number): number {
  return db
    .update(jobs)
    .set({ state: "pending", attempts: sql`max(${jobs.attempts} - 1, 0)`, processDeaths: sql`${jobs.processDeaths} + 1`, leaseId: null, leaseExpiresAt: null, runAt: now, updatedAt: now })
    .where(eq(jobs.state, "running"))
    .returning({ id: jobs.id }).all().length;
}

/** The job's own task process died: counted (not as an attempt); POISON_CRASHES in a row park it as failed. */
export function afterTaskProcessDied(tx: Tx, job: ClaimedJob, how: string, now: number): "retry" | "parked" {
  const crashes = job.crashes + 1;
  const kept = { processDeaths: 1, crashes, attempts: Math.max(0, job.attempts - 1) };
  if (crashes >= POISON_CRASHES) {
    const lastError = `parked: its task's own process died ${crashes} times in a row (last: ${how}); a save that crashes the server? retry runs it again`;
    transition(tx, job, { ...kept, state: "failed", lastError }, now);
    return "parked";
  }
  transition(tx, job, { ...kept, state: "pending", runAt: now, lastError: `its task's own process died (${how})` }, now);
  return "retry";
}

/** A clean shutdown: jobs still running after the grace go back to the queue as if never claimed. */
export function releaseRunning(db: Db, now: number): number {
  return db
    .update(jobs)
    .set({ state: "pending", attempts: sql`max(${jobs.attempts} - 1, 0)`, leaseId: null, leaseExpiresAt: null, runAt: now, updatedAt: now })
    .where(eq(jobs.state, "running"))
    .returning({ id: jobs.id }).all().length;
}

export function resumeWaitingForKey(db: Db, now: number): number {
  return db
    .update(jobs)
    .set({ state: "pending", runAt: now, attempts: 0, updatedAt: now })
    .where(eq(jobs.state, "waiting_for_key"))
    .returning({ id: jobs.id }).all().length;
}

/**
 * At start-up, with keys: each unfinished or failed save job is judged again under the keys of this run (its
 * save's last two blocks are enough). One that can be a save now runs in its turn, a failed one again.
 */
export function rejudgePlausibility(db: Db, mayBeSave: (tail: Uint8Array) => boolean, now: number): number {
  const rows = db.$client
    .query(
      `SELECT j.id, j.implausible, j.state, substr(s.encrypted, -32) AS tail, s.size FROM jobs j JOIN saves s ON s.id = j.save_id
       WHERE j.state != 'done' AND s.encrypted IS NOT NULL`,
    )
    .all() as { id: number; implausible: number; state: string; tail: Uint8Array; size: number }[];
  const flag = db.$client.query("UPDATE jobs SET implausible = ?2 WHERE id = ?1");
  const again = db.$client.query("UPDATE jobs SET state = 'pending', attempts = 0, last_error = NULL, run_at = ?2, updated_at = ?2 WHERE id = ?1 AND state = 'failed'");
  let plausibleAgain = 0;
  db.transaction(() => {
    for (const row of rows) {
      // The tail is the last two blocks (one for a one-block save); the size tells whole blocks from others.
      const judged = row.size % 16 === 0 && mayBeSave(row.tail) ? 0 : 1;
      if (judged === row.implausible) continue;
      flag.run(row.id, judged);
      if (judged === 0) plausibleAgain += again.run(row.id, now).changes;
    }
  });
  return plausibleAgain;
}

/**
 * Owner retry: failed jobs (all, or one save's) start their failed stage again, and failed deliveries are due
 * again; a finished save with such a delivery goes back to notify to send it.
 */
export function retryFailed(db: Db, now: number, saveId?: number): { jobs: number; deliveries: number } {
  return db.transaction((tx) => {
    const retried = tx
      .update(jobs)
      .set({ state: "pending", runAt: now, attempts: 0, processDeaths: 0, crashes: 0, lastError: null, updatedAt: now })
      .where(and(eq(jobs.state, "failed"), saveId === undefined ? undefined : eq(jobs.saveId, saveId)))
      .returning({ id: jobs.id })
      .all().length;
    const redelivered = retryFailedDeliveries(tx, now, saveId);
    const saveIds = [...new Set(redelivered)];
    if (saveIds.length > 0) {
      tx.update(jobs)
        .set({ stage: "notify", state: "pending", runAt: now, attempts: 0, lastError: null, notify: true, updatedAt: now })
        .where(and(inArray(jobs.saveId, saveIds), eq(jobs.state, "done")))
        .run();
    }
    return { jobs: retried, deliveries: redelivered.length };
  });
}

/**
 * Owner reprocess: run every stage of a save again; with `notify` its deliveries start over (a new push, sent
 * even when its drops repeat the player's last push).
 */
export function reprocess(db: Db, saveId: number, notify: boolean, now: number): boolean {
  return db.transaction((tx) => {
    if (tx.select({ id: saves.id }).from(saves).where(eq(saves.id, saveId)).get()) ensureSaveJob(tx, saveId, now);
    const queued = tx
      .update(jobs)
      .set({ stage: "generate", state: "pending", runAt: now, attempts: 0, lastError: null, notify, forcePush: notify, rerun: false, leaseId: null, updatedAt: now })
      .where(and(eq(jobs.saveId, saveId), ne(jobs.state, "running")))
      .returning({ id: jobs.id })
      .all().length === 1;
    if (queued && notify) resetDeliveries(tx, saveId);
    return queued;
  });
}

/** When the next job is due, for the poller's sleep; null when nothing waits. */
export function nextDueAt(db: Db): number | null {
  const row = db
    .select({ runAt: sql<number | null>`min(${jobs.runAt})` })
    .from(jobs)
    .where(inArray(jobs.state, ["pending", "pending_retry"]))
    .get();
  return row?.runAt ?? null;
}
