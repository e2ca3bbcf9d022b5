/**
 * What a lease holder does with its job: move it to the next stage, retry it later, fail or park it. The rules
 * (which change each outcome makes) are src/store/model/jobs.ts's; the writes below are SQLite's.
 */
import type { Tx } from "../open.ts";
import { jobs } from "../schema.ts";
import { advanceChange, holderOf, LeaseLostError, redrawChange, retryChange, taskProcessDiedChange, type ClaimedJob, type JobStage, type Transition } from "../../store/model/jobs.ts";
import { leaseHeld } from "./lease.ts";


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


export function advanceTo(tx: Tx, job: ClaimedJob, stage: JobStage, now: number): void {
  transition(tx, job, advanceChange(stage, now), now);
}


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

export function retryOrFail(tx: Tx, job: ClaimedJob, error: string, steps: readonly number[], now: number): "retry" | "failed" {
  const change = retryChange(job, error, steps, now);
  transition(tx, job, change, now);
  return change.state === "failed" ? "failed" : "retry";
}

export function afterTaskProcessDied(tx: Tx, job: ClaimedJob, how: string, now: number): "retry" | "parked" {
  const change = taskProcessDiedChange(job, how, now);
  transition(tx, job, change, now);
  return change.state === "failed" ? "parked" : "retry";
}
