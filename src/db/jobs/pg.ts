/**
 * The job store over a hub's PostgreSQL, the same rules as SQLite's (the contract test holds them together):
 * claims pick with FOR UPDATE SKIP LOCKED, so processes claiming at once each take a different job without
 * waiting for one another; every holder's write is fenced by the one lease predicate (lease.ts); times are
 * bigint ms.
 */
import { and, desc, eq, getTableColumns, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { JobStore } from "../../store/ports/jobs.ts";
import type { PgDb } from "../pg/open.ts";
import { jobs, saves } from "../pg/schema.ts";
import { leaseHeldIn } from "./lease.ts";
import { claimedJob, LeaseLostError, subjectlessFailure } from "../../store/model/jobs.ts";
import { rejudgePlausibility, resumeWaitingForKey } from "./lifecycle.ts";
import { pgStatements } from "../dialect/pg.ts";
import { reprocess, retryFailed } from "./owner-actions.ts";
import { NEW_WORK_CHANNEL, pgNotifySender, pgEnqueueReport, pgEnqueueSave, pgRequeueForRedraw } from "./pg-enqueue.ts";
import { pgFenced, pgRecordChange } from "./pg-transitions.ts";

export function pgJobStore(db: PgDb): JobStore {
  const claimOne = async (now: number, leaseMs: number, plausibleOnly: boolean) => {
    const due = and(
      or(and(inArray(jobs.state, ["pending", "pending_retry"]), lte(jobs.runAt, now)), and(eq(jobs.state, "running"), lt(jobs.leaseExpiresAt, now))),
      plausibleOnly ? eq(jobs.implausible, false) : undefined,
    );
    // The same order as SQLite's claim (sqlite-claim.ts): real saves first, fresh before retried, subscribed players', then the oldest.
    const next = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(due)
      .orderBy(jobs.implausible, sql`${jobs.state} = 'pending_retry'`, desc(jobs.subscribed), jobs.id)
      .limit(1)
      .for("update", { skipLocked: true });
    const leaseId = crypto.randomUUID();
    // One statement, one transaction: the row the subquery locked is the row updated. It reads the save's player
    // too, which the runner's log lines name: one round trip less a stage.
    const [row] = await db
      .update(jobs)
      .set({ state: "running", leaseId, leaseExpiresAt: now + leaseMs, attempts: sql`${jobs.attempts} + 1`, updatedAt: now })
      .where(eq(jobs.id, sql`(${next})`))
      .returning({ ...getTableColumns(jobs), player: sql<string | null>`(SELECT ${saves.playerId} FROM ${saves} WHERE ${saves.id} = ${jobs.saveId})` });
    return row ? { row, leaseId } : null;
  };

  return {
    claim: async (now, leaseMs, plausibleOnly) => {
      for (;;) {
        const claimed = await claimOne(now, leaseMs, plausibleOnly);
        if (!claimed) return null;
        const job = claimedJob(claimed.row, claimed.leaseId, claimed.row.player);
        if (job) return job;
        await db.update(jobs).set(subjectlessFailure(now)).where(and(eq(jobs.id, claimed.row.id), eq(jobs.leaseId, claimed.leaseId)));
      }
    },
    nextDueAt: async () => {
      const [row] = await db.select({ at: sql<string | null>`min(${jobs.runAt})` }).from(jobs).where(inArray(jobs.state, ["pending", "pending_retry"]));
      return row?.at == null ? null : Number(row.at);
    },
    renew: async (holder, now, leaseMs) =>
      (await db.update(jobs).set({ leaseExpiresAt: now + leaseMs }).where(leaseHeldIn(jobs, holder, now)).returning({ id: jobs.id })).length === 1,
    holds: async (holder, now) => (await db.select({ id: jobs.id }).from(jobs).where(leaseHeldIn(jobs, holder, now))).length === 1,
    record: (job, change, now) => pgRecordChange(db, job, change, now),
    transition: async (job, change, now) => {
      if (!(await pgFenced(db, job, change, now))) throw new LeaseLostError(job.id);
    },
    enqueueSave: (saveId, at, implausible) => db.transaction((tx) => pgEnqueueSave(tx, saveId, at, implausible)),
    enqueueReport: (reportId, at) => db.transaction((tx) => pgEnqueueReport(tx, reportId, at)),
    requeueForRedraw: (saveId, now) => db.transaction((tx) => pgRequeueForRedraw(tx, saveId, now)),
    retryFailed: (now, saveId) => pgStatements(db).transaction(() => retryFailed(now, saveId)),
    reprocess: (saveId, notify, now) => pgStatements(db).transaction(() => reprocess(saveId, notify, now)),
    reclaimAtStart: async (now) =>
      (
        await db
          .update(jobs)
          .set({ state: "pending", attempts: sql`greatest(${jobs.attempts} - 1, 0)`, processDeaths: sql`${jobs.processDeaths} + 1`, leaseId: null, leaseExpiresAt: null, runAt: now, updatedAt: now })
          .where(and(eq(jobs.state, "running"), lt(jobs.leaseExpiresAt, now)))
          .returning({ id: jobs.id })
      ).length,
    resumeWaitingForKey: (now) => pgStatements(db).transaction(() => resumeWaitingForKey(now)),
    rejudgePlausibility: (mayBeSave, now) => pgStatements(db).transaction(() => rejudgePlausibility(mayBeSave, now)),
    releaseAtStop: async () => 0,
    listen: async (wake) => {
      // A dedicated connection, reconnected by postgres-js; a notification missed meanwhile waits for the poll.
      const own = pgNotifySender(db);
      const subscription = await db.$client.listen(NEW_WORK_CHANNEL, (sender) => sender !== own && wake());
      return () => subscription.unlisten();
    },
  };
}
