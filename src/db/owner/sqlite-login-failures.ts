/**
 * Wrong owner tokens per peer, in the store so every process throttles the same guesser. Bounded: past
 * MAX_PEERS the peer that failed longest ago goes first. A power cut may forget the last failure: these commits
 * do not wait for the disk.
 */
import { asc, eq, lt, sql } from "drizzle-orm";
import { replayableCommit, type Db } from "../open.ts";
import { loginFailures } from "../schema.ts";
import type { LoginFailures } from "../../store/model/owner.ts";

export const MAX_PEERS = 4096;


export function loginFailuresOf(db: Db, peer: string): LoginFailures | undefined {
  return db.select({ failures: loginFailures.failures, lastFailure: loginFailures.lastFailure }).from(loginFailures).where(eq(loginFailures.peer, peer)).get();
}

/** Records `failures` for `peer` at `now`; rows whose last failure is before `forgetBefore` go first. */
export function recordLoginFailures(db: Db, peer: string, failures: number, now: number, forgetBefore: number): void {
  replayableCommit(db, () =>
    db.transaction((tx) => {
      tx.delete(loginFailures).where(lt(loginFailures.lastFailure, forgetBefore)).run();
      const known = tx.select({ n: sql<number>`count(*)` }).from(loginFailures).get()!.n;
      const isNew = tx.select({ peer: loginFailures.peer }).from(loginFailures).where(eq(loginFailures.peer, peer)).get() === undefined;
      if (known >= MAX_PEERS && isNew) {
        const oldest = tx.select({ peer: loginFailures.peer }).from(loginFailures).orderBy(asc(loginFailures.lastFailure)).limit(known - MAX_PEERS + 1).all();
        for (const row of oldest) tx.delete(loginFailures).where(eq(loginFailures.peer, row.peer)).run();
      }
      tx.insert(loginFailures).values({ peer, failures, lastFailure: now }).onConflictDoUpdate({ target: loginFailures.peer, set: { failures, lastFailure: now } }).run();
    }),
  );
}

export function clearLoginFailures(db: Db, peer: string): void {
  if (loginFailuresOf(db, peer) === undefined) return;
  replayableCommit(db, () => db.delete(loginFailures).where(eq(loginFailures.peer, peer)).run());
}
