/**
 * The lease predicate: the one test of "this runner still holds this job", used by every write a holder makes
 * (renewal, stage transitions, delivery attempts). A claim writes a fresh lease id, so a holder whose lease
 * expired and was claimed again can change nothing; an expired lease is not held even before anyone claims it.
 */
import { and, eq, gt } from "drizzle-orm";
import type { Db, Tx } from "../open.ts";
import { jobs } from "../schema.ts";

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

export const leaseHeld = (holder: LeaseHolder, now: number) =>
  and(eq(jobs.id, holder.jobId), eq(jobs.leaseId, holder.leaseId), eq(jobs.state, "running"), gt(jobs.leaseExpiresAt, now));

/** Extends a held lease; false when it is no longer held. */
export function renewLease(db: Db | Tx, holder: LeaseHolder, now: number, leaseMs: number): boolean {
  return db.update(jobs).set({ leaseExpiresAt: now + leaseMs }).where(leaseHeld(holder, now)).returning({ id: jobs.id }).all().length === 1;
}

/** Whether `holder` holds its job at `now`. */
export function holdsLease(db: Db | Tx, holder: LeaseHolder, now: number): boolean {
  return db.select({ id: jobs.id }).from(jobs).where(leaseHeld(holder, now)).get() !== undefined;
}
