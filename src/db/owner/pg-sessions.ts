/**
 * Owner login sessions on a hub's PostgreSQL, the same rules as SQLite's (src/db/owner-sessions.ts): sha256 ids,
 * expired ones dropped at each login, at most MAX_SESSIONS. Logins take the table's write lock, so that
 * processes opening sessions at once count the same rows and never pass the cap; reads never wait for it.
 */
import { and, asc, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { SessionRecords } from "../../http/admin/sessions.ts";
import { MAX_SESSIONS } from "./sqlite-sessions.ts";
import type { PgDb } from "../pg/open.ts";
import { ownerSessions } from "../pg/schema.ts";

export function pgSessionRecords(db: PgDb): SessionRecords {
  return {
    open: (idHash, expiresAt, now) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`LOCK TABLE ${ownerSessions} IN SHARE ROW EXCLUSIVE MODE`);
        await tx.delete(ownerSessions).where(lte(ownerSessions.expiresAt, now));
        const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(ownerSessions);
        const open = row?.n ?? 0;
        if (open >= MAX_SESSIONS) {
          const oldest = tx.select({ idHash: ownerSessions.idHash }).from(ownerSessions).orderBy(asc(ownerSessions.expiresAt)).limit(open - MAX_SESSIONS + 1);
          await tx.delete(ownerSessions).where(inArray(ownerSessions.idHash, oldest));
        }
        await tx.insert(ownerSessions).values({ idHash, expiresAt });
      }),
    isOpen: async (idHash, now) =>
      (await db.select({ idHash: ownerSessions.idHash }).from(ownerSessions).where(and(eq(ownerSessions.idHash, idHash), gt(ownerSessions.expiresAt, now)))).length === 1,
    close: async (idHash) => void (await db.delete(ownerSessions).where(eq(ownerSessions.idHash, idHash))),
  };
}
