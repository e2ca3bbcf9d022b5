/**
 * Owner login sessions in the store: any process answers a session another opened. Rows hold the sha256 of the
 * cookie's id, so a copy of the database opens no session. Bounded: past MAX_SESSIONS the oldest goes first.
 * Losing the last session write to a power cut only logs someone out: these commits do not wait for the disk.
 */
import { and, asc, eq, gt, lte, sql } from "drizzle-orm";
import { replayableCommit, type Db } from "../open.ts";
import { ownerSessions } from "../schema.ts";

export const MAX_SESSIONS = 256;

export function openSession(db: Db, idHash: string, expiresAt: number, now: number): void {
  replayableCommit(db, () =>
    db.transaction((tx) => {
      tx.delete(ownerSessions).where(lte(ownerSessions.expiresAt, now)).run();
      const open = tx.select({ n: sql<number>`count(*)` }).from(ownerSessions).get()!.n;
      if (open >= MAX_SESSIONS) {
        const oldest = tx.select({ idHash: ownerSessions.idHash }).from(ownerSessions).orderBy(asc(ownerSessions.expiresAt)).limit(open - MAX_SESSIONS + 1).all();
        for (const row of oldest) tx.delete(ownerSessions).where(eq(ownerSessions.idHash, row.idHash)).run();
      }
      tx.insert(ownerSessions).values({ idHash, expiresAt }).run();
    }),
  );
}

export function sessionOpen(db: Db, idHash: string, now: number): boolean {
  return db.select({ idHash: ownerSessions.idHash }).from(ownerSessions).where(and(eq(ownerSessions.idHash, idHash), gt(ownerSessions.expiresAt, now))).get() !== undefined;
}

export function closeSession(db: Db, idHash: string): void {
  replayableCommit(db, () => db.delete(ownerSessions).where(eq(ownerSessions.idHash, idHash)).run());
}
