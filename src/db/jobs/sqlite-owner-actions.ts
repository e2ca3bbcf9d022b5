/** The owner's actions on the queue (CLI and status page): retry what failed, run a save's stages again. */
import { and, eq, inArray, ne } from "drizzle-orm";
import { resetDeliveries, retryFailedDeliveries } from "../deliveries/rows.ts";
import type { Db } from "../open.ts";
import { jobs, saves } from "../schema.ts";
import { ensureSaveJob } from "./sqlite-enqueue.ts";

/**
 * Failed jobs (all, or one save's) start their failed stage again, and failed deliveries are due again; a
 * finished save with such a delivery goes back to notify to send it.
 */
export function retryFailed(db: Db, now: number, saveId?: number): { jobs: number; deliveries: number } {
  return db.transaction((tx) => {
    const retried = tx
      .update(jobs)
      .set({ state: "pending", runAt: now, attempts: 0, processDeaths: 0, crashes: 0, lastError: null, updatedAt: now })
      .where(and(eq(jobs.state, "failed"), saveId === undefined ? undefined : eq(jobs.saveId, saveId)))
      .returning({ id: jobs.id })
      .all().length;
    const redelivered = retryFailedDeliveries(tx, now, saveId);
    const saveIds = [...new Set(redelivered)];
    if (saveIds.length > 0) {
      tx.update(jobs)
        .set({ stage: "notify", state: "pending", runAt: now, attempts: 0, lastError: null, notify: true, updatedAt: now })
        .where(and(inArray(jobs.saveId, saveIds), eq(jobs.state, "done")))
        .run();
    }
    return { jobs: retried, deliveries: redelivered.length };
  });
}

/** Every stage of a save runs again; with `notify` its deliveries start over (a new push, sent even when its drops repeat the player's last push). */
export function reprocess(db: Db, saveId: number, notify: boolean, now: number): boolean {
  return db.transaction((tx) => {
    if (tx.select({ id: saves.id }).from(saves).where(eq(saves.id, saveId)).get()) ensureSaveJob(tx, saveId, now);
    const queued = tx
      .update(jobs)
      .set({ stage: "generate", state: "pending", runAt: now, attempts: 0, lastError: null, notify, forcePush: notify, rerun: false, leaseId: null, updatedAt: now })
      .where(and(eq(jobs.saveId, saveId), ne(jobs.state, "running")))
      .returning({ id: jobs.id })
      .all().length === 1;
    if (queued && notify) resetDeliveries(tx, saveId);
    return queued;
  });
}
