/**
 * The holder's and the enqueuers' writes to PostgreSQL's jobs table, on a connection or inside a caller's
 * transaction: the job store uses them alone, the stage store with a stage's rows in one transaction.
 */
import { and, eq, sql } from "drizzle-orm";
import type { PgDb } from "../pg/open.ts";
import { jobs } from "../pg/schema.ts";
import { holderOf, type ClaimedJob } from "./claim.ts";
import { leaseHeldIn, LeaseLostError } from "./lease.ts";
import { redrawChange, transitionSet, type Transition } from "./transitions.ts";

export type PgTx = Parameters<Parameters<PgDb["transaction"]>[0]>[0];
type PgHandle = PgDb | PgTx;

/** Applies `change` while the lease is held (and, given `rerun`, while the redraw flag is that); whether it did. */
export const pgFenced = async (db: PgHandle, job: ClaimedJob, change: Transition, now: number, rerun?: boolean) =>
  (
    await db
      .update(jobs)
      .set(transitionSet(change, now))
      .where(and(leaseHeldIn(jobs, holderOf(job), now), rerun === undefined ? undefined : eq(jobs.rerun, rerun)))
      .returning({ id: jobs.id })
  ).length === 1;

/**
 * Records a stage's outcome; a save flagged for redraw meanwhile goes back to generate. Throws LeaseLostError when
 * the lease is not held. One statement in the usual case. The flag only goes from false to true while the job
 * runs, and each UPDATE reads it on the row's latest version after the row lock (which requeueForRedraw also
 * takes): a flag set between the two is caught by the second.
 */
export async function pgRecordChange(db: PgHandle, job: ClaimedJob, change: Transition, now: number): Promise<"recorded" | "redraw"> {
  if (await pgFenced(db, job, change, now, false)) return "recorded";
  if (await pgFenced(db, job, redrawChange(now), now, true)) return "redraw";
  throw new LeaseLostError(job.id);
}

export async function pgEnqueueSave(tx: PgTx, saveId: number, at: number, implausible: boolean): Promise<void> {
  await tx.insert(jobs).values({ saveId, stage: "generate", state: "pending", implausible, runAt: at, createdAt: at, updatedAt: at });
  await notifyNewWork(tx);
}

export async function pgEnqueueReport(tx: PgTx, reportId: number, at: number): Promise<void> {
  await tx.insert(jobs).values({ reportId, stage: "evaluate", runAt: at, createdAt: at, updatedAt: at });
  await notifyNewWork(tx);
}

/** The save's maps must be drawn again: a job at rest goes back to generate, a running one is flagged. */
export async function pgRequeueForRedraw(tx: PgTx, saveId: number, now: number): Promise<void> {
  await tx.insert(jobs).values({ saveId, stage: "done", state: "done", runAt: now, createdAt: now, updatedAt: now }).onConflictDoNothing();
  // Locked first: the holder's record then sees the flag, or the job is at rest when we look.
  const [row] = await tx.select({ state: jobs.state }).from(jobs).where(eq(jobs.saveId, saveId)).for("update");
  if (row?.state === "running") {
    await tx.update(jobs).set({ rerun: true, updatedAt: now }).where(eq(jobs.saveId, saveId));
    return;
  }
  await tx.update(jobs).set({ stage: "generate", state: "pending", runAt: now, attempts: 0, notify: true, rerun: false, lastError: null, updatedAt: now }).where(eq(jobs.saveId, saveId));
  await notifyNewWork(tx);
}

/** The channel on which committed new jobs wake the pollers of every process. */
export const NEW_WORK_CHANNEL = "mysekai_jobs";

/** Delivered to the listeners when `tx` commits, and not at all when it rolls back. */
const notifyNewWork = (tx: PgTx) => tx.execute(sql`SELECT pg_notify(${NEW_WORK_CHANNEL}, '')`);
