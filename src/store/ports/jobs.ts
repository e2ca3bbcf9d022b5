/**
 * The job queue as the pipeline uses it, async so that a hub's PostgreSQL can stand behind it: both stores
 * (src/db/jobs/sqlite.ts, pg.ts) run the same flows of src/db/jobs/, SQLite's synchronously, PostgreSQL's over the network. Both pass tests/contract/job-store.*.contract.test.ts.
 */
import type { ClaimedJob, LeaseHolder, Transition } from "../model/jobs.ts";

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

  // The holder's writes: each ends the lease, and throws LeaseLostError, changing nothing, when it is not held.
  // The change comes from the rules in src/store/model/jobs.ts (advanceChange, retryChange, taskProcessDiedChange).
  /** Records a stage's outcome; a save flagged for redraw while the stage ran goes back to generate instead. */
  record(job: ClaimedJob, change: Transition, now: number): Promise<"recorded" | "redraw">;
  /** Applies the change whatever the flag says (a stage whose own writes could not be recorded). */
  transition(job: ClaimedJob, change: Transition, now: number): Promise<void>;

  enqueueSave(saveId: number, at: number, implausible: boolean): Promise<void>;
  enqueueReport(reportId: number, at: number): Promise<void>;
  /** The save's maps must be drawn again: a job at rest goes back to generate, a running one is flagged. */
  requeueForRedraw(saveId: number, now: number): Promise<void>;
  /**
   * The owner's retry: failed jobs (all, or one save's) start their failed stage again, failed deliveries are due
   * again, and a finished save with such a delivery goes back to notify.
   */
  retryFailed(now: number, saveId?: number): Promise<{ jobs: number; deliveries: number }>;
  /** Every stage of a save runs again (false when it is running or unknown); `notify`: its deliveries start over. */
  reprocess(saveId: number, notify: boolean, now: number): Promise<boolean>;
  /**
   * At start-up, jobs whose holder died go back to the queue, the attempt not held against them, their tasks
   * isolated from now on. SQLite: every running job (its instance lock says no other process runs). PostgreSQL:
   * those whose lease expired, since other processes may hold theirs.
   */
  reclaimAtStart(now: number): Promise<number>;
  /** At start-up with keys: jobs that waited for a key are due again. */
  resumeWaitingForKey(now: number): Promise<number>;
  /**
   * At start-up with keys: each unfinished or failed save job is judged again under this run's keys (`mayBeSave`
   * of its save's last two blocks); one that can be a save now runs in its turn, a failed one again.
   */
  rejudgePlausibility(mayBeSave: (tail: Uint8Array) => boolean, now: number): Promise<number>;
  /**
   * At a clean stop, after the grace: SQLite's running jobs go back to the queue as if never claimed (this process
   * held them all). PostgreSQL releases none (it cannot tell its own from other processes'): their leases expire and
   * another process claims them.
   */
  releaseAtStop(now: number): Promise<number>;
  /**
   * Calls `wake` when another process commits new work (an enqueue, a redraw), so that idle slots claim at once
   * rather than at their next poll; polling stays, for a wake-up lost on a dropped connection. Resolves to a stop.
   * SQLite has one process, which wakes its own slots (Pipeline.wake): nothing to hear there.
   */
  listen(wake: () => void): Promise<() => Promise<void>>;
}
