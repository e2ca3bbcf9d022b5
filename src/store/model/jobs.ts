/**
 * The job queue's records and the changes its holders make, in plain TypeScript: the pipeline and both stores
 * (src/db/jobs/) share them; tests/unit/model-jobs.test.ts holds both schemas' jobs rows to `JobRow`.
 */

/** `archive` only for jobs queued by an older version, which kept drawn files between generate and archive. */
export const JOB_STAGES = ["evaluate", "generate", "archive", "notify", "done"] as const;
export type JobStage = (typeof JOB_STAGES)[number];
export const JOB_STATES = ["pending", "running", "pending_retry", "waiting_for_key", "failed", "done"] as const;
export type JobState = (typeof JOB_STATES)[number];

/** A row of `jobs` (the schemas' comments say what each column means). */
export interface JobRow {
  id: number;
  saveId: number | null;
  reportId: number | null;
  stage: JobStage;
  state: JobState;
  attempts: number;
  processDeaths: number;
  crashes: number;
  runAt: number;
  leaseId: string | null;
  leaseExpiresAt: number | null;
  notify: boolean;
  rerun: boolean;
  forcePush: boolean;
  implausible: boolean;
  subscribed: boolean;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
}

export type SaveSubject = { kind: "save"; saveId: number };
export type ReportSubject = { kind: "report"; reportId: number };
/** What a job works on: a save (generate → notify) or a report (evaluate). */
export type JobSubject = SaveSubject | ReportSubject;

/** Who holds a job: its id and the lease id its claim wrote. */
export interface LeaseHolder {
  jobId: number;
  leaseId: string;
}

export class LeaseLostError extends Error {
  constructor(jobId: number) {
    super(`job ${jobId} lost its lease`);
  }
}

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
  /** The save's player id as the claim read it, for the runner's log lines (where the store reads it there). */
  player?: string;
}

export const holderOf = (job: Pick<ClaimedJob, "id" | "leaseId">): LeaseHolder => ({ jobId: job.id, leaseId: job.leaseId });

/** What a holder's write changes in its job's row. */
export type Transition = Partial<Pick<JobRow, "stage" | "state" | "runAt" | "attempts" | "lastError" | "notify" | "forcePush" | "rerun" | "processDeaths" | "crashes">>;

export const advanceChange = (stage: JobStage, now: number): Transition => ({ stage, state: stage === "done" ? "done" : "pending", runAt: now, attempts: 0, lastError: null });

/** A flagged save goes back to generate, with a push. */
export const redrawChange = (now: number): Transition => ({ stage: "generate", state: "pending", runAt: now, attempts: 0, lastError: null, notify: true, rerun: false });

/** Exponential backoff from the configured steps with ±20 % jitter; null when retries are used up. */
export function backoffDelay(attempts: number, steps: readonly number[], random = Math.random): number | null {
  const step = steps[attempts - 1];
  if (step === undefined) return null;
  return Math.round(step * (0.8 + random() * 0.4));
}

/** A failed attempt: due again after the backoff, or failed once retries are used up. */
export function retryChange(job: ClaimedJob, error: string, steps: readonly number[], now: number): Transition & { state: "pending_retry" | "failed" } {
  const delay = backoffDelay(job.attempts, steps);
  if (delay === null) return { state: "failed", lastError: error };
  return { state: "pending_retry", runAt: now + delay, lastError: error };
}

/** Deaths in a row of a job's own task process that park it: a save that crashes whatever runs it. */
export const POISON_CRASHES = 3;

/** The job's own task process died: counted (not as an attempt); POISON_CRASHES in a row park it as failed. */
export function taskProcessDiedChange(job: ClaimedJob, how: string, now: number): Transition & { state: "pending" | "failed" } {
  const crashes = job.crashes + 1;
  const kept = { processDeaths: 1, crashes, attempts: Math.max(0, job.attempts - 1) };
  if (crashes >= POISON_CRASHES) {
    const lastError = `parked: its task's own process died ${crashes} times in a row (last: ${how}); a save that crashes the server? retry runs it again`;
    return { ...kept, state: "failed", lastError };
  }
  return { ...kept, state: "pending", runAt: now, lastError: `its task's own process died (${how})` };
}

/** The claimed row as its holder sees it; null for a row without a single subject (subjectlessFailure). */
export function claimedJob(job: JobRow, leaseId: string, player?: string | null): ClaimedJob | null {
  const subject = subjectOf(job);
  if (!subject) return null;
  const claimed: ClaimedJob = { id: job.id, leaseId, stage: job.stage, attempts: job.attempts, notify: job.notify, forcePush: job.forcePush, lastError: job.lastError, implausible: job.implausible, isolated: job.processDeaths > 0, crashes: job.crashes, subject };
  if (player != null) claimed.player = player;
  return claimed;
}

export const subjectlessFailure = (now: number) => ({ state: "failed" as const, lastError: "job has no single subject (save_id xor report_id)", leaseId: null, leaseExpiresAt: null, updatedAt: now });

function subjectOf(job: JobRow): JobSubject | null {
  if (job.saveId !== null && job.reportId === null) return { kind: "save", saveId: job.saveId };
  if (job.reportId !== null && job.saveId === null) return { kind: "report", reportId: job.reportId };
  return null;
}
