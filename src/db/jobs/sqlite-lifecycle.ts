/** The queue's housekeeping over SQLite: jobs of a process that died, jobs still running at shutdown, done jobs past retention (keys that arrived: lifecycle.ts). */
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

/** The retention rule's step for jobs: done save jobs finished before `cutoff`, at most `limit` of them. */
export function deleteDoneSaveJobs(db: Db, cutoff: number, limit: number): number {
  return db.$client
    .query("DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE save_id IS NOT NULL AND state = 'done' AND updated_at < ?1 LIMIT ?2)")
    .run(cutoff, limit).changes;
}
