/**
 * What a lease holder does with its job: move it to the next stage, retry it later, fail or park it. The rules
 * (which change each outcome makes) are plain functions both stores apply; the writes below are SQLite's.
 */
import type { Tx } from "../open.ts";
import { jobs, type JobStage } from "../schema.ts";
import { holderOf, type ClaimedJob, type Job } from "./sqlite-claim.ts";
import { leaseHeld, LeaseLostError } from "./lease.ts";

export type Transition = Partial<Pick<Job, "stage" | "state" | "runAt" | "attempts" | "lastError" | "notify" | "forcePush" | "rerun" | "processDeaths" | "crashes">>;

/** Every transition ends the lease; the crash counts start over unless the change keeps them. */
export const transitionSet = (change: Transition, now: number) => ({ processDeaths: 0, crashes: 0, ...change, leaseId: null, leaseExpiresAt: null, updatedAt: now });

/** Applies a transition only while the lease is held; throws LeaseLostError otherwise (rolling back `tx`). */
export function transition(tx: Tx, job: ClaimedJob, change: Transition, now: number): void {
  const result = tx
    .update(jobs)
    .set(transitionSet(change, now))
    .where(leaseHeld(holderOf(job), now))
    .returning({ id: jobs.id }).all();
  if (result.length !== 1) throw new LeaseLostError(job.id);
}

export const advanceChange = (stage: JobStage, now: number): Transition => ({ stage, state: stage === "done" ? "done" : "pending", runAt: now, attempts: 0, lastError: null });

export function advanceTo(tx: Tx, job: ClaimedJob, stage: JobStage, now: number): void {
  transition(tx, job, advanceChange(stage, now), now);
}

/** A flagged save goes back to generate, with a push. */
export const redrawChange = (now: number): Transition => ({ stage: "generate", state: "pending", runAt: now, attempts: 0, lastError: null, notify: true, rerun: false });

/**
 * A save that took a real player id while this stage ran (`rerun`) goes back to generate, since its maps show
 * the id; the flag is read and cleared under the lease, in the transaction that records the stage.
 */
export function rerunIfFlagged(tx: Tx, job: ClaimedJob, now: number): boolean {
  const row = tx.select({ rerun: jobs.rerun }).from(jobs).where(leaseHeld(holderOf(job), now)).get();
  if (!row) throw new LeaseLostError(job.id);
  if (!row.rerun) return false;
  transition(tx, job, redrawChange(now), now);
  return true;
}

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

export function retryOrFail(tx: Tx, job: ClaimedJob, error: string, steps: readonly number[], now: number): "retry" | "failed" {
  const change = retryChange(job, error, steps, now);
  transition(tx, job, change, now);
  return change.state === "failed" ? "failed" : "retry";
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

export function afterTaskProcessDied(tx: Tx, job: ClaimedJob, how: string, now: number): "retry" | "parked" {
  const change = taskProcessDiedChange(job, how, now);
  transition(tx, job, change, now);
  return change.state === "failed" ? "parked" : "retry";
}
