/**
 * Wrong owner tokens per peer on a hub's PostgreSQL, the same rules as SQLite's (src/db/login-failures.ts): stale
 * peers forgotten, at most MAX_PEERS. Each record takes the table's write lock for its read and write, so that
 * guesses arriving at once on several processes are each counted and the cap holds; reads never wait for it.
 */
import { asc, eq, inArray, lt, sql } from "drizzle-orm";
import type { LoginFailureRecords } from "../../http/admin/login-throttle.ts";
import { MAX_PEERS } from "./sqlite-login-failures.ts";
import type { PgDb } from "../pg/open.ts";
import { loginFailures } from "../pg/schema.ts";

export function pgLoginFailureRecords(db: PgDb): LoginFailureRecords {
  const columns = { failures: loginFailures.failures, lastFailure: loginFailures.lastFailure };
  return {
    of: async (peer) => (await db.select(columns).from(loginFailures).where(eq(loginFailures.peer, peer)))[0],
    record: (peer, now, forgetBefore, count) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`LOCK TABLE ${loginFailures} IN SHARE ROW EXCLUSIVE MODE`);
        await tx.delete(loginFailures).where(lt(loginFailures.lastFailure, forgetBefore));
        const [current] = await tx.select(columns).from(loginFailures).where(eq(loginFailures.peer, peer));
        const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(loginFailures);
        const known = row?.n ?? 0;
        if (known >= MAX_PEERS && current === undefined) {
          const oldest = tx.select({ peer: loginFailures.peer }).from(loginFailures).orderBy(asc(loginFailures.lastFailure)).limit(known - MAX_PEERS + 1);
          await tx.delete(loginFailures).where(inArray(loginFailures.peer, oldest));
        }
        const failures = count(current);
        await tx.insert(loginFailures).values({ peer, failures, lastFailure: now }).onConflictDoUpdate({ target: loginFailures.peer, set: { failures, lastFailure: now } });
      }),
    clear: async (peer) => void (await db.delete(loginFailures).where(eq(loginFailures.peer, peer))),
  };
}
