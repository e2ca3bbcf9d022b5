/**
 * Jobs enter a hub's PostgreSQL queue here, inside the caller's transaction (the save or report row and its job
 * commit together), each with a notification that wakes a sleeping slot of each process when that transaction commits (a single-chunk
 * upload's names its sender, and is left out when the sender's own free slot takes the job: src/pipeline/slot-wakes.ts).
 */
import { eq, sql, type SQL } from "drizzle-orm";
import { SUBSCRIPTION_KEEP_MS, subscribedPlayer, subscribedSave } from "../owner/msr-subscriptions.ts";
import type { PgTx } from "../pg/open.ts";
import { jobs } from "../pg/schema.ts";

/** The channel on which committed new jobs wake the pollers of every process. */
export const NEW_WORK_CHANNEL = "mysekai_jobs";

/** Delivered to the listeners when `tx` commits, and not at all when it rolls back. */
const notifyNewWork = (tx: PgTx) => tx.execute(sql`SELECT pg_notify(${NEW_WORK_CHANNEL}, '')`);

/** A new save's first job; `implausible` saves run after every real one, a subscribed player's before others. */
export async function pgEnqueueSave(tx: PgTx, saveId: number, at: number, implausible: boolean): Promise<void> {
  await tx.insert(jobs).values({ saveId, stage: "generate", state: "pending", implausible, subscribed: subscribedSave(saveId, at - SUBSCRIPTION_KEEP_MS), runAt: at, createdAt: at, updatedAt: at });
  await notifyNewWork(tx);
}

/**
 * The same first job and wake-up as pgEnqueueSave, as parts of one statement over the saves it inserts (`newSaves`,
 * a data-modifying CTE returning `id` and `player_id`): the INSERT for another CTE, and an expression for its final SELECT (a CTE
 * nobody reads would not run). For a request that commits in one round trip (uploads/pg.ts). The wake-up names
 * its `sender` (pgNotifySender), or is left out (null) when the sender's own free slot takes the job.
 */
export const pgEnqueueSavesFrom = (newSaves: SQL, at: number, implausible: boolean) =>
  sql`INSERT INTO jobs (save_id, stage, state, implausible, subscribed, run_at, created_at, updated_at)
    SELECT id, 'generate', 'pending', ${implausible}, ${subscribedPlayer(sql`${newSaves}.player_id`, at - SUBSCRIPTION_KEEP_MS)}, ${at}, ${at}, ${at} FROM ${newSaves}`;
export const pgNotifyNewWorkFrom = (newSaves: SQL, sender: string | null) =>
  sender === null ? sql`0` : sql`(SELECT count(*) FROM (SELECT pg_notify(${NEW_WORK_CHANNEL}, ${sender}) FROM ${newSaves}) AS woken)`;

const senders = new WeakMap<object, string>();
/**
 * This process's name on NEW_WORK_CHANNEL (one per database handle: tests run several services in one process).
 * An upload's wake-up carries it, and the sender's own listener skips it: the upload's answer wakes that
 * process's slot already (slot-wakes.ts).
 */
export function pgNotifySender(db: object): string {
  let sender = senders.get(db);
  if (sender === undefined) senders.set(db, (sender = crypto.randomUUID()));
  return sender;
}

export async function pgEnqueueReport(tx: PgTx, reportId: number, at: number): Promise<void> {
  await tx.insert(jobs).values({ reportId, stage: "evaluate", runAt: at, createdAt: at, updatedAt: at });
  await notifyNewWork(tx);
}

/** As sqlite-enqueue.ts's requeueForRedraw: a job at rest goes back to generate, a running one is flagged for its holder. */
export async function pgRequeueForRedraw(tx: PgTx, saveId: number, now: number): Promise<void> {
  await tx.insert(jobs).values({ saveId, stage: "done", state: "done", runAt: now, createdAt: now, updatedAt: now }).onConflictDoNothing();
  // Locked first: the holder's record then sees the flag, or the job is at rest when we look.
  const [row] = await tx.select({ state: jobs.state }).from(jobs).where(eq(jobs.saveId, saveId)).for("update");
  if (row?.state === "running") {
    await tx.update(jobs).set({ rerun: true, updatedAt: now }).where(eq(jobs.saveId, saveId));
    return;
  }
  await tx.update(jobs).set({ stage: "generate", state: "pending", runAt: now, attempts: 0, notify: true, rerun: false, lastError: null, subscribed: subscribedSave(saveId, now - SUBSCRIPTION_KEEP_MS), updatedAt: now }).where(eq(jobs.saveId, saveId));
  await notifyNewWork(tx);
}

/**
 * Locks a save's job row (if it has one) for the rest of `tx`. Whoever writes a save's row and its job in one
 * transaction takes the job first, as a stage recording under its lease does: the other order deadlocks with it.
 */
export async function pgLockSaveJob(tx: PgTx, saveId: number): Promise<void> {
  await tx.select({ id: jobs.id }).from(jobs).where(eq(jobs.saveId, saveId)).for("update");
}
