/**
 * N processes share a hub's database, and its housekeeping (the retention sweep, expiring upload tasks) runs in
 * one at a time: the work runs while its process holds a session advisory lock, and a process that finds the lock
 * taken skips it (the holder does that period's work). The lock goes with its connection, so a process that dies
 * mid-work frees it.
 */
import type { PgDb } from "./open.ts";

/** The advisory lock key of the housekeeping (any constant shared by every process; not open.ts's MIGRATION_LOCK). */
const HOUSEKEEPING_LOCK = 0x6d79_7367; // "mysg"

/** `work`'s result, or null when another process holds the housekeeping lock now. */
export async function underHousekeepingLock<T>(db: PgDb, work: () => Promise<T>): Promise<T | null> {
  // A connection of its own: a session lock belongs to the connection that took it, and the work's statements
  // go over the pool meanwhile.
  const lock = await db.$client.reserve();
  try {
    const [row] = await lock`SELECT pg_try_advisory_lock(${HOUSEKEEPING_LOCK}) AS taken`;
    if (!row?.taken) return null;
    try {
      return await work();
    } finally {
      await lock`SELECT pg_advisory_unlock(${HOUSEKEEPING_LOCK})`.catch(() => {});
    }
  } finally {
    lock.release();
  }
}
