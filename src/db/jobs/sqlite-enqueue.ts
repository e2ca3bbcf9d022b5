/** Jobs enter the queue here: a save's generate job, a report's evaluate job, and a save sent back to draw again. */
import { and, eq, ne, sql } from "drizzle-orm";
import { SUBSCRIPTION_KEEP_MS, subscribedSave } from "../owner/msr-subscriptions.ts";
import { prepared, type Tx } from "../open.ts";
import { jobs } from "../schema.ts";

/** Every upload and report runs these (src/db/open.ts `prepared`). */
const enqueueQueries = (tx: Tx) => ({
  saveJob: tx
    .insert(jobs)
    .values({
      saveId: sql.placeholder("saveId"),
      stage: "generate",
      state: "pending",
      implausible: sql.placeholder("implausible"),
      subscribed: subscribedSave(sql.placeholder("saveId"), sql.placeholder("since")),
      runAt: sql.placeholder("at"),
      createdAt: sql.placeholder("at"),
      updatedAt: sql.placeholder("at"),
    })
    .prepare(),
  reportJob: tx
    .insert(jobs)
    .values({ reportId: sql.placeholder("reportId"), stage: "evaluate", runAt: sql.placeholder("at"), createdAt: sql.placeholder("at"), updatedAt: sql.placeholder("at") })
    .prepare(),
});

/** A new save's first job; `implausible` saves run after every real one, a subscribed player's before others. */
export function enqueueSave(tx: Tx, saveId: number, at: number, implausible: boolean): void {
  prepared(tx, enqueueQueries).saveJob.run({ saveId, at, implausible: implausible ? 1 : 0, since: at - SUBSCRIPTION_KEEP_MS });
}

export function enqueueReport(tx: Tx, reportId: number, at: number): void {
  prepared(tx, enqueueQueries).reportJob.run({ reportId, at });
}

/** The retention rule deletes done save jobs: a save that must run again gets a (done) job row back first. */
export function ensureSaveJob(tx: Tx, saveId: number, now: number): void {
  tx.insert(jobs).values({ saveId, stage: "done", state: "done", runAt: now, createdAt: now, updatedAt: now }).onConflictDoNothing().run();
}

/**
 * The save's maps must be drawn again (it took a real player id): a job at rest goes back to generate (with a
 * push); a running one is flagged, and its holder sends it back to generate when it records the stage
 * (rerunIfFlagged).
 */
export function requeueForRedraw(tx: Tx, saveId: number, now: number): void {
  ensureSaveJob(tx, saveId, now);
  const requeued = tx
    .update(jobs)
    .set({ stage: "generate", state: "pending", runAt: now, attempts: 0, notify: true, rerun: false, lastError: null, subscribed: subscribedSave(saveId, now - SUBSCRIPTION_KEEP_MS), updatedAt: now })
    .where(and(eq(jobs.saveId, saveId), ne(jobs.state, "running")))
    .returning({ id: jobs.id })
    .all();
  if (requeued.length === 0) tx.update(jobs).set({ rerun: true, updatedAt: now }).where(eq(jobs.saveId, saveId)).run();
}
