/** The queue's housekeeping: jobs of a process that died, jobs still running at shutdown, keys that arrived, done jobs past retention. */
import { eq, sql } from "drizzle-orm";
import type { Db } from "../open.ts";
import { jobs } from "../schema.ts";

/**
 * At start-up every `running` job belongs to a service that died without shutting down (a clean shutdown
 * releases its jobs, releaseRunning). Nothing says whether the host killed it or the job did, so the job is
 * due again at once, the attempt is not held against it, and from now on its tasks run in a process of their
 * own (task-process.ts): a job that kills that process is seen doing so (afterTaskProcessDied), while the
 * service dying again costs the job nothing. A save answered 200 is never failed because its host was killed.
 */
export function reclaimOrphans(db: Db, now: number): number {
  return db
    .update(jobs)
    .set({ state: "pending", attempts: sql`max(${jobs.attempts} - 1, 0)`, processDeaths: sql`${jobs.processDeaths} + 1`, leaseId: null, leaseExpiresAt: null, runAt: now, updatedAt: now })
    .where(eq(jobs.state, "running"))
    .returning({ id: jobs.id }).all().length;
}

/** A clean shutdown: jobs still running after the grace go back to the queue as if never claimed. */
export function releaseRunning(db: Db, now: number): number {
  return db
    .update(jobs)
    .set({ state: "pending", attempts: sql`max(${jobs.attempts} - 1, 0)`, leaseId: null, leaseExpiresAt: null, runAt: now, updatedAt: now })
    .where(eq(jobs.state, "running"))
    .returning({ id: jobs.id }).all().length;
}

export function resumeWaitingForKey(db: Db, now: number): number {
  return db
    .update(jobs)
    .set({ state: "pending", runAt: now, attempts: 0, updatedAt: now })
    .where(eq(jobs.state, "waiting_for_key"))
    .returning({ id: jobs.id }).all().length;
}

/**
 * At start-up, with keys: each unfinished or failed save job is judged again under the keys of this run (its
 * save's last two blocks are enough). One that can be a save now runs in its turn, a failed one again.
 */
export function rejudgePlausibility(db: Db, mayBeSave: (tail: Uint8Array) => boolean, now: number): number {
  const rows = db.$client
    .query(
      `SELECT j.id, j.implausible, j.state, substr(s.encrypted, -32) AS tail, s.size FROM jobs j JOIN saves s ON s.id = j.save_id
       WHERE j.state != 'done' AND s.encrypted IS NOT NULL`,
    )
    .all() as { id: number; implausible: number; state: string; tail: Uint8Array; size: number }[];
  const flag = db.$client.query("UPDATE jobs SET implausible = ?2 WHERE id = ?1");
  const again = db.$client.query("UPDATE jobs SET state = 'pending', attempts = 0, last_error = NULL, run_at = ?2, updated_at = ?2 WHERE id = ?1 AND state = 'failed'");
  let plausibleAgain = 0;
  db.transaction(() => {
    for (const row of rows) {
      // The tail is the last two blocks (one for a one-block save); the size tells whole blocks from others.
      const judged = row.size % 16 === 0 && mayBeSave(row.tail) ? 0 : 1;
      if (judged === row.implausible) continue;
      flag.run(row.id, judged);
      if (judged === 0) plausibleAgain += again.run(row.id, now).changes;
    }
  });
  return plausibleAgain;
}

/** The retention rule's step for jobs: done save jobs finished before `cutoff`, at most `limit` of them. */
export function deleteDoneSaveJobs(db: Db, cutoff: number, limit: number): number {
  return db.$client
    .query("DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE save_id IS NOT NULL AND state = 'done' AND updated_at < ?1 LIMIT ?2)")
    .run(cutoff, limit).changes;
}
