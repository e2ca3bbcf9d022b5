/**
 * The lease predicate: the one test of "this runner still holds this job", used by every write a holder makes
 * (renewal, stage transitions, delivery attempts). A claim writes a fresh lease id, so a holder whose lease
 * expired and was claimed again can change nothing; an expired lease is not held even before anyone claims it.
 */
import { and, eq, gt, type Column } from "drizzle-orm";
import type { Db, Tx } from "../open.ts";
import { jobs } from "../schema.ts";
import type { LeaseHolder } from "../../store/model/jobs.ts";

/** The jobs table's columns the predicate reads, in either store's schema. */
export interface LeaseColumns {
  id: Column;
  leaseId: Column;
  state: Column;
  leaseExpiresAt: Column;
}

/** The predicate over either store's jobs table (SQLite's src/db/schema.ts, PostgreSQL's src/db/pg/schema.ts). */
export const leaseHeldIn = (table: LeaseColumns, holder: LeaseHolder, now: number) =>
  and(eq(table.id, holder.jobId), eq(table.leaseId, holder.leaseId), eq(table.state, "running"), gt(table.leaseExpiresAt, now));

export const leaseHeld = (holder: LeaseHolder, now: number) => leaseHeldIn(jobs, holder, now);

/** Extends a held lease; false when it is no longer held. */
export function renewLease(db: Db | Tx, holder: LeaseHolder, now: number, leaseMs: number): boolean {
  return db.update(jobs).set({ leaseExpiresAt: now + leaseMs }).where(leaseHeld(holder, now)).returning({ id: jobs.id }).all().length === 1;
}

/** Whether `holder` holds its job at `now`. */
export function holdsLease(db: Db | Tx, holder: LeaseHolder, now: number): boolean {
  return db.select({ id: jobs.id }).from(jobs).where(leaseHeld(holder, now)).get() !== undefined;
}
