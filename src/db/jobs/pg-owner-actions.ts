/**
 * The owner's actions on a hub's queue (owner-actions.ts's rules over PostgreSQL): retry what failed, run a save's
 * stages again. Each is one transaction with its delivery changes, and wakes every process's poller on commit.
 */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { pgResetDeliveries, pgRetryFailedDeliveries } from "../deliveries/pg.ts";
import type { PgDb } from "../pg/open.ts";
import { jobs, saves } from "../pg/schema.ts";
import { NEW_WORK_CHANNEL } from "./pg-enqueue.ts";

const wakeAll = sql`SELECT pg_notify(${NEW_WORK_CHANNEL}, '')`;

export function pgRetryFailed(db: PgDb, now: number, saveId?: number): Promise<{ jobs: number; deliveries: number }> {
  return db.transaction(async (tx) => {
    const retried = await tx
      .update(jobs)
      .set({ state: "pending", runAt: now, attempts: 0, processDeaths: 0, crashes: 0, lastError: null, updatedAt: now })
      .where(and(eq(jobs.state, "failed"), saveId === undefined ? undefined : eq(jobs.saveId, saveId)))
      .returning({ id: jobs.id });
    const redelivered = await pgRetryFailedDeliveries(tx, now, saveId);
    const saveIds = [...new Set(redelivered)];
    if (saveIds.length > 0) {
      await tx
        .update(jobs)
        .set({ stage: "notify", state: "pending", runAt: now, attempts: 0, lastError: null, notify: true, updatedAt: now })
        .where(and(inArray(jobs.saveId, saveIds), eq(jobs.state, "done")));
    }
    if (retried.length + saveIds.length > 0) await tx.execute(wakeAll);
    return { jobs: retried.length, deliveries: redelivered.length };
  });
}

export function pgReprocess(db: PgDb, saveId: number, notify: boolean, now: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [save] = await tx.select({ id: saves.id }).from(saves).where(eq(saves.id, saveId));
    if (save) await tx.insert(jobs).values({ saveId, stage: "done", state: "done", runAt: now, createdAt: now, updatedAt: now }).onConflictDoNothing();
    const queued = await tx
      .update(jobs)
      .set({ stage: "generate", state: "pending", runAt: now, attempts: 0, lastError: null, notify, forcePush: notify, rerun: false, leaseId: null, updatedAt: now })
      .where(and(eq(jobs.saveId, saveId), ne(jobs.state, "running")))
      .returning({ id: jobs.id });
    if (queued.length !== 1) return false;
    if (notify) await pgResetDeliveries(tx, saveId);
    await tx.execute(wakeAll);
    return true;
  });
}
