/** The queue's housekeeping on a hub's PostgreSQL, as lifecycle.ts does it over SQLite. */
import { and, eq, inArray, isNotNull, lt, ne, sql } from "drizzle-orm";
import type { PgDb } from "../pg/open.ts";
import { jobs, saves } from "../pg/schema.ts";
import { NEW_WORK_CHANNEL } from "./pg-enqueue.ts";

/** The retention rule's step for jobs: done save jobs finished before `cutoff`, at most `limit` of them. */
export async function pgDeleteDoneSaveJobs(db: PgDb, cutoff: number, limit: number): Promise<number> {
  const expired = db.select({ id: jobs.id }).from(jobs).where(and(isNotNull(jobs.saveId), eq(jobs.state, "done"), lt(jobs.updatedAt, cutoff))).limit(limit);
  return (await db.delete(jobs).where(inArray(jobs.id, expired)).returning({ id: jobs.id })).length;
}

export async function pgResumeWaitingForKey(db: PgDb, now: number): Promise<number> {
  return (await db.update(jobs).set({ state: "pending", runAt: now, attempts: 0, updatedAt: now }).where(eq(jobs.state, "waiting_for_key")).returning({ id: jobs.id })).length;
}

/** As lifecycle.ts's rejudgePlausibility; processes starting at once with the same keys judge alike. */
export async function pgRejudgePlausibility(db: PgDb, mayBeSave: (tail: Uint8Array) => boolean, now: number): Promise<number> {
  const rows = await db
    .select({
      id: jobs.id,
      implausible: jobs.implausible,
      tail: sql<Uint8Array>`substring(${saves.encrypted} from greatest(octet_length(${saves.encrypted}) - 31, 1))`,
      size: saves.size,
    })
    .from(jobs)
    .innerJoin(saves, eq(saves.id, jobs.saveId))
    .where(and(ne(jobs.state, "done"), isNotNull(saves.encrypted)));
  const changed = rows.flatMap((row) => {
    const implausible = !(row.size % 16 === 0 && mayBeSave(row.tail));
    return implausible === row.implausible ? [] : [{ id: row.id, implausible }];
  });
  if (changed.length === 0) return 0;
  return db.transaction(async (tx) => {
    let plausibleAgain = 0;
    for (const { id, implausible } of changed) {
      await tx.update(jobs).set({ implausible }).where(eq(jobs.id, id));
      if (implausible) continue;
      const again = await tx.update(jobs).set({ state: "pending", attempts: 0, lastError: null, runAt: now, updatedAt: now }).where(and(eq(jobs.id, id), eq(jobs.state, "failed"))).returning({ id: jobs.id });
      plausibleAgain += again.length;
    }
    if (plausibleAgain > 0) await tx.execute(sql`SELECT pg_notify(${NEW_WORK_CHANNEL}, '')`);
    return plausibleAgain;
  });
}
