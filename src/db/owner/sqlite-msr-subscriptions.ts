/**
 * lunabot's `/msr` subscription lists (PUT update_msr_sub): per API token and region the last [uid, mode] list, a
 * row for the list and one per pair. lunabot PUTs its list before every poll, every few seconds, mostly the same:
 * the same list again rewrites the list's row only; another list replaces the pairs. Any PUT sweeps the lists a
 * day old (their pairs go with them). SQLite's PUT (pg-msr-subscriptions.ts: PostgreSQL's, one statement); the
 * read and the rules both share are msr-subscriptions.ts's.
 */
import { and, eq, gte, lt, not, sql } from "drizzle-orm";
import type { Db } from "../sqlite/open.ts";
import { msrSubscriptionPlayers, msrSubscriptions } from "../schema.ts";
import type { SubscriptionList } from "../../store/model/owner.ts";
import { listSha256, SUBSCRIPTION_KEEP_MS } from "./msr-subscriptions.ts";

/** Keeps `list` as the token's list for `region`, and sweeps every other list a day old. */
export function putMsrSubscription(db: Db, tokenName: string, region: string, list: SubscriptionList, now: number): void {
  const ofList = and(eq(msrSubscriptions.tokenName, tokenName), eq(msrSubscriptions.region, region));
  const sha256 = listSha256(list.pairs);
  const head = { peer: list.peer, listBytes: list.bytes, listSha256: sha256, updatedAt: now };
  db.transaction(
    (tx) => {
      tx.delete(msrSubscriptions).where(and(lt(msrSubscriptions.updatedAt, now - SUBSCRIPTION_KEEP_MS), not(ofList!))).run();
      const prior = tx.select({ listSha256: msrSubscriptions.listSha256 }).from(msrSubscriptions).where(ofList).get();
      tx.insert(msrSubscriptions).values({ tokenName, region, ...head }).onConflictDoUpdate({ target: [msrSubscriptions.tokenName, msrSubscriptions.region], set: head }).run();
      const ofListPairs = and(eq(msrSubscriptionPlayers.tokenName, tokenName), eq(msrSubscriptionPlayers.region, region));
      // A pair past the list's length is a change too (as on PostgreSQL, where two PUTs at once may leave one).
      const tail = tx.select({ one: sql`1` }).from(msrSubscriptionPlayers).where(and(ofListPairs, gte(msrSubscriptionPlayers.position, list.pairs.length))).limit(1).get();
      if (prior?.listSha256 === sha256 && tail === undefined) return;
      tx.delete(msrSubscriptionPlayers).where(ofListPairs).run();
      const rows = list.pairs.map((pair, position) => ({ tokenName, region, position, playerId: pair.uid, mode: pair.mode }));
      if (rows.length > 0) tx.insert(msrSubscriptionPlayers).values(rows).run();
    },
    { behavior: "immediate" },
  );
}
