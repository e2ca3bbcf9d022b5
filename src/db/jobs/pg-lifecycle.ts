/** The retention rule's step for a hub's jobs (SQLite's: sqlite-lifecycle.ts). */
import { and, eq, inArray, isNotNull, lt } from "drizzle-orm";
import type { PgDb } from "../pg/open.ts";
import { jobs } from "../pg/schema.ts";

/** The retention rule's step for jobs: done save jobs finished before `cutoff`, at most `limit` of them. */
export async function pgDeleteDoneSaveJobs(db: PgDb, cutoff: number, limit: number): Promise<number> {
  const expired = db.select({ id: jobs.id }).from(jobs).where(and(isNotNull(jobs.saveId), eq(jobs.state, "done"), lt(jobs.updatedAt, cutoff))).limit(limit);
  return (await db.delete(jobs).where(inArray(jobs.id, expired)).returning({ id: jobs.id })).length;
}
