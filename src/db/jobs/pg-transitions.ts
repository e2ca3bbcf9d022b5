/**
 * A holder's transitions on PostgreSQL's jobs table (the rules are transitions.ts'), on a connection or inside a
 * caller's transaction: the job store applies them alone, the stage store with a stage's rows in one transaction.
 */
import { and, eq, type SQL } from "drizzle-orm";
import type { PgDb, PgTx } from "../pg/open.ts";
import { jobs } from "../pg/schema.ts";
import { holderOf, LeaseLostError, redrawChange, type ClaimedJob, type Transition } from "../../store/model/jobs.ts";
import { leaseHeldIn } from "./lease.ts";
import { transitionSet } from "./transitions.ts";

const fencedUpdate = (db: PgDb | PgTx, job: ClaimedJob, change: Transition, now: number, rerun?: boolean) =>
  db
    .update(jobs)
    .set(transitionSet(change, now))
    .where(and(leaseHeldIn(jobs, holderOf(job), now), rerun === undefined ? undefined : eq(jobs.rerun, rerun)))
    .returning({ id: jobs.id });

/** Applies `change` while the lease is held (and, given `rerun`, while the redraw flag is that); whether it did. */
export const pgFenced = async (db: PgDb | PgTx, job: ClaimedJob, change: Transition, now: number, rerun?: boolean) => (await fencedUpdate(db, job, change, now, rerun)).length === 1;

/**
 * pgRecordChange's usual case as a data-modifying CTE for a statement that writes a stage's rows with it: returns
 * the job's id when the lease is held and no redraw is flagged, no row otherwise (and changes nothing then).
 */
export const pgRecordedChangeSql = (db: PgDb, job: ClaimedJob, change: Transition, now: number): SQL => fencedUpdate(db, job, change, now, false).getSQL();

/**
 * Records a stage's outcome; a save flagged for redraw meanwhile goes back to generate. Throws LeaseLostError when
 * the lease is not held. One statement in the usual case. The flag only goes from false to true while the job
 * runs, and each UPDATE reads it on the row's latest version after the row lock (which requeueForRedraw also
 * takes): a flag set between the two is caught by the second.
 */
export async function pgRecordChange(db: PgDb | PgTx, job: ClaimedJob, change: Transition, now: number): Promise<"recorded" | "redraw"> {
  if (await pgFenced(db, job, change, now, false)) return "recorded";
  if (await pgFenced(db, job, redrawChange(now), now, true)) return "redraw";
  throw new LeaseLostError(job.id);
}
