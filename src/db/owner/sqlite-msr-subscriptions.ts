/**
 * lunabot's `/msr` subscription lists (PUT update_msr_sub): per API token and region the last [uid, mode] list, a
 * row for the list and one per pair. lunabot PUTs its list before every poll, every few seconds, mostly the same:
 * the same list again rewrites the list's row only; another list replaces the pairs. Any PUT sweeps the lists a
 * day old (their pairs go with them). The one owner of both tables on SQLite (src/db/pg/msr-subscriptions.ts on
 * PostgreSQL). The job queue reads the pairs (subscribedSave) to put a subscribed player's save first.
 */
import { and, asc, eq, gte, lt, not, sql, type Placeholder, type SQL } from "drizzle-orm";
import { sha256Hex } from "../../sha256.ts";
import type { Db } from "../open.ts";
import { msrSubscriptionPlayers, msrSubscriptions } from "../schema.ts";
import type { MsrSubscription, SubscribedPair, SubscriptionList } from "../../store/model/owner.ts";

/** A list nobody PUT again for a day is swept. */
export const SUBSCRIPTION_KEEP_MS = 24 * 3600_000;


/** What tells one list from another: the same pairs in the same order hash the same. */
export const listSha256 = (pairs: SubscribedPair[]) => sha256Hex(JSON.stringify(pairs.map((pair) => [pair.uid, pair.mode])));

/** The list's row and its pairs' rows as read back (a list's row without pairs is an empty list); null for none. */
export function subscriptionOf(rows: { peer: string; listBytes: number; updatedAt: number; playerId: string | null; mode: string | null }[]): MsrSubscription | null {
  const first = rows[0];
  if (first === undefined) return null;
  const pairs = rows.flatMap((row) => (row.playerId === null || row.mode === null ? [] : [{ uid: row.playerId, mode: row.mode }]));
  return { pairs, peer: first.peer, bytes: first.listBytes, at: first.updatedAt };
}

type SqlValue = SQL | Placeholder | number;

/**
 * SQL true when a bot's list PUT since `since` names the player, for the job queue (the same text on both
 * stores): a probe of msr_subscription_players_player_idx and of the list's key, made once when the job is queued,
 * not per claim. A list nobody PUT for a day counts no more, swept or not. A `haruki` pair reads another service's
 * copy, not ours (the PUT also marks so a player the token may not read): it gives no priority.
 */
export const subscribedPlayer = (playerId: SQL, since: SqlValue) =>
  sql`EXISTS (SELECT 1 FROM msr_subscription_players JOIN msr_subscriptions ON msr_subscriptions.token_name = msr_subscription_players.token_name AND msr_subscriptions.region = msr_subscription_players.region
    WHERE msr_subscription_players.player_id = ${playerId} AND msr_subscription_players.mode <> 'haruki' AND msr_subscriptions.updated_at >= ${since})`;
export const subscribedSave = (saveId: SqlValue, since: SqlValue) => subscribedPlayer(sql`(SELECT player_id FROM saves WHERE saves.id = ${saveId})`, since);

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

/** The token's list for `region`: one read by the primary keys. */
export function msrSubscription(db: Db, tokenName: string, region: string): MsrSubscription | null {
  const rows = db
    .select({ peer: msrSubscriptions.peer, listBytes: msrSubscriptions.listBytes, updatedAt: msrSubscriptions.updatedAt, playerId: msrSubscriptionPlayers.playerId, mode: msrSubscriptionPlayers.mode })
    .from(msrSubscriptions)
    .leftJoin(msrSubscriptionPlayers, and(eq(msrSubscriptionPlayers.tokenName, msrSubscriptions.tokenName), eq(msrSubscriptionPlayers.region, msrSubscriptions.region)))
    .where(and(eq(msrSubscriptions.tokenName, tokenName), eq(msrSubscriptions.region, region)))
    .orderBy(asc(msrSubscriptionPlayers.position))
    .all();
  return subscriptionOf(rows);
}
