/**
 * Claiming a job: one UPDATE … RETURNING takes the oldest due job (or one whose lease expired) and writes a
 * fresh lease id, the fence every later write of its holder is checked against (lease.ts).
 */
import { and, eq } from "drizzle-orm";
import type { Db } from "../open.ts";
import { jobs } from "../schema.ts";
import { claimedJob, subjectlessFailure, type ClaimedJob, type JobRow } from "../../store/model/jobs.ts";

/**
 * Claims the oldest due job (or one whose lease expired): a save runs through its stages before younger saves
 * start. Jobs being retried come after every fresh one: a failing job never holds back the saves queued behind
 * it; among fresh ones, a save of a player some bot subscribes to (jobs.subscribed, set when it was queued) goes
 * first; saves whose bytes cannot be one under the keys come after all, and not at all with `plausibleOnly` (while a
 * real save runs, junk must not take the CPU it renders on).
 */
export function claimJob(db: Db, now: number, leaseMs: number, plausibleOnly = false): ClaimedJob | null {
  for (;;) {
    const leaseId = crypto.randomUUID();
    const row = db.$client
      .query(
        `UPDATE jobs SET state = 'running', lease_id = ?1, lease_expires_at = ?2, attempts = attempts + 1, updated_at = ?3
         WHERE id = (
           SELECT id FROM jobs
           WHERE ((state IN ('pending', 'pending_retry') AND run_at <= ?3) OR (state = 'running' AND lease_expires_at < ?3))
             AND implausible <= ?4
           ORDER BY implausible, state = 'pending_retry', subscribed DESC, id LIMIT 1)
         RETURNING id`,
      )
      .get(leaseId, now + leaseMs, now, plausibleOnly ? 0 : 1) as { id: number } | null;
    if (!row) return null;
    const job = db.select().from(jobs).where(eq(jobs.id, row.id)).get();
    if (!job) return null;
    const claimed = claimedJob(job, leaseId);
    if (claimed) return claimed;
    // The schema allows such a row, though no writer makes one: it fails here once rather than on every attempt.
    db.update(jobs).set(subjectlessFailure(now)).where(and(eq(jobs.id, job.id), eq(jobs.leaseId, leaseId))).run();
  }
}

/** When the next job is due, for the poller's sleep; null when nothing waits. */
export function nextDueAt(db: Db): number | null {
  const row = db.$client.query("SELECT min(run_at) AS at FROM jobs WHERE state IN ('pending', 'pending_retry')").get() as { at: number | null } | null;
  return row?.at ?? null;
}
