/**
 * lunabot's `/msr` subscription lists (PUT update_msr_sub): per API token and region the last [uid, mode] list,
 * one row per pair, replaced whole by each PUT; lists a day old are swept by the next PUT of any token. The one
 * owner of msr_subscriptions on SQLite (src/db/pg/msr-subscriptions.ts on PostgreSQL). The job queue reads it
 * (subscribedSave) to put a subscribed player's save first.
 */
import { and, asc, eq, lt, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "./open.ts";
import { msrSubscriptions } from "./schema.ts";

/** A list nobody PUT again for a day is swept (lunabot PUTs its list before every poll, every few seconds). */
export const SUBSCRIPTION_KEEP_MS = 24 * 3600_000;

export type SubscribedPair = { uid: string; mode: string };
export interface MsrSubscription {
  pairs: SubscribedPair[];
  /** The address the list came from, and its length in bytes as sent. */
  peer: string;
  bytes: number;
  at: number;
}

/** The rows of one list, in its order. */
export const subscriptionRows = (tokenName: string, region: string, list: Omit<MsrSubscription, "at">, now: number) =>
  list.pairs.map((pair, position) => ({ tokenName, region, position, playerId: pair.uid, mode: pair.mode, peer: list.peer, listBytes: list.bytes, updatedAt: now }));

/** What a list's rows read back as; null for none. */
export function subscriptionOf(rows: { playerId: string; mode: string; peer: string; listBytes: number; updatedAt: number }[]): MsrSubscription | null {
  const first = rows[0];
  if (first === undefined) return null;
  return { pairs: rows.map((row) => ({ uid: row.playerId, mode: row.mode })), peer: first.peer, bytes: first.listBytes, at: first.updatedAt };
}

const subscriptionColumns = { playerId: msrSubscriptions.playerId, mode: msrSubscriptions.mode, peer: msrSubscriptions.peer, listBytes: msrSubscriptions.listBytes, updatedAt: msrSubscriptions.updatedAt };

/**
 * SQL true when some bot subscribes to the save's player, for the job queue (the same text on both stores): one
 * probe of saves' key and one of msr_subscriptions_player_idx, made once when the job is queued, not per claim.
 */
export const subscribedSave = (saveId: SQL | Placeholder | number) =>
  sql`EXISTS (SELECT 1 FROM saves JOIN msr_subscriptions ON msr_subscriptions.player_id = saves.player_id WHERE saves.id = ${saveId})`;

/** Replaces the token's list for `region` (an empty list removes it), and sweeps every other list a day old. */
export function putMsrSubscription(db: Db, tokenName: string, region: string, list: Omit<MsrSubscription, "at">, now: number): void {
  const ofToken = and(eq(msrSubscriptions.tokenName, tokenName), eq(msrSubscriptions.region, region));
  db.transaction(
    (tx) => {
      tx.delete(msrSubscriptions).where(or(ofToken, lt(msrSubscriptions.updatedAt, now - SUBSCRIPTION_KEEP_MS))).run();
      const rows = subscriptionRows(tokenName, region, list, now);
      if (rows.length > 0) tx.insert(msrSubscriptions).values(rows).run();
    },
    { behavior: "immediate" },
  );
}

/** The token's list for `region`, by the primary key: one indexed read. */
export function msrSubscription(db: Db, tokenName: string, region: string): MsrSubscription | null {
  const rows = db
    .select(subscriptionColumns)
    .from(msrSubscriptions)
    .where(and(eq(msrSubscriptions.tokenName, tokenName), eq(msrSubscriptions.region, region)))
    .orderBy(asc(msrSubscriptions.position))
    .all();
  return subscriptionOf(rows);
}
