/**
 * The job queue as the pipeline uses it, async so that a hub's PostgreSQL can stand behind it: the SQLite store
 * (src/db/jobs/sqlite-store.ts) wraps the synchronous functions of src/db/jobs/, the PostgreSQL one
 * (src/db/jobs/pg-store.ts) does the same over the network. Both pass tests/unit/job-store.contract.test.ts.
 */
import type { ClaimedJob, LeaseHolder, Transition } from "../db/jobs/index.ts";
import type { JobStage } from "../db/schema.ts";

export interface JobStore {
  /**
   * Takes the next due job under a fresh lease: real saves before junk (none with `plausibleOnly`), fresh jobs
   * before retried ones, then the oldest id; a running job whose lease expired is due again.
   */
  claim(now: number, leaseMs: number, plausibleOnly: boolean): Promise<ClaimedJob | null>;
  /** When the next pending job is due, for the poller's sleep; null when none waits. */
  nextDueAt(): Promise<number | null>;
  /** Extends a held lease; false (changing nothing) when it is no longer held. */
  renew(holder: LeaseHolder, now: number, leaseMs: number): Promise<boolean>;
  /** Whether `holder` holds its job at `now`: its lease id, still running, not expired. */
  holds(holder: LeaseHolder, now: number): Promise<boolean>;

  // The holder's moves: each ends the lease, and throws LeaseLostError, changing nothing, when it is not held.
  transition(job: ClaimedJob, change: Transition, now: number): Promise<void>;
  advance(job: ClaimedJob, stage: JobStage, now: number): Promise<void>;
  /** Sends a save flagged for redraw back to generate; false when it was not flagged. */
  rerunIfFlagged(job: ClaimedJob, now: number): Promise<boolean>;
  /** A failed attempt: due again after the backoff step, failed once the steps are used up. */
  retryOrFail(job: ClaimedJob, error: string, backoffMs: readonly number[], now: number): Promise<"retry" | "failed">;
  afterTaskProcessDied(job: ClaimedJob, how: string, now: number): Promise<"retry" | "parked">;

  enqueueSave(saveId: number, at: number, implausible: boolean): Promise<void>;
  enqueueReport(reportId: number, at: number): Promise<void>;
  /** The save's maps must be drawn again: a job at rest goes back to generate, a running one is flagged. */
  requeueForRedraw(saveId: number, now: number): Promise<void>;
  /**
   * At start-up, jobs whose holder died go back to the queue, the attempt not held against them, their tasks
   * isolated from now on. SQLite: every running job (its instance lock says no other process runs). PostgreSQL:
   * those whose lease expired, since other processes may hold theirs.
   */
  reclaimAtStart(now: number): Promise<number>;
}
