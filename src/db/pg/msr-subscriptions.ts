/**
 * lunabot's `/msr` subscription lists on a hub's PostgreSQL, the same rows as SQLite's (../msr-subscriptions.ts),
 * so the PUT and the GET that follows may reach different processes. A PUT is one statement (one round trip): its
 * rows upserted by position, the rest of its old list and every other list a day old deleted by a CTE (the two
 * touch different rows: the statement never writes a row twice).
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { SUBSCRIPTION_KEEP_MS, subscriptionOf, subscriptionRows, type MsrSubscription } from "../msr-subscriptions.ts";
import type { PgDb } from "./open.ts";
import { msrSubscriptions } from "./schema.ts";

export function pgPutMsrSubscription(db: PgDb, tokenName: string, region: string, list: Omit<MsrSubscription, "at">, now: number): Promise<unknown> {
  const ofToken = sql`token_name = ${tokenName} AND region = ${region}`;
  const sweep = sql`DELETE FROM msr_subscriptions WHERE (${ofToken} AND position >= ${list.pairs.length}) OR (updated_at < ${now - SUBSCRIPTION_KEEP_MS} AND NOT (${ofToken}))`;
  const rows = subscriptionRows(tokenName, region, list, now);
  if (rows.length === 0) return db.execute(sweep);
  const upsert = db
    .insert(msrSubscriptions)
    .values(rows)
    .onConflictDoUpdate({
      target: [msrSubscriptions.tokenName, msrSubscriptions.region, msrSubscriptions.position],
      set: { playerId: sql`excluded.player_id`, mode: sql`excluded.mode`, peer: sql`excluded.peer`, listBytes: sql`excluded.list_bytes`, updatedAt: sql`excluded.updated_at` },
    });
  // A data-modifying CTE runs whether or not the statement reads it.
  return db.execute(sql`WITH swept AS (${sweep}) ${upsert.getSQL()}`);
}

export async function pgMsrSubscription(db: PgDb, tokenName: string, region: string): Promise<MsrSubscription | null> {
  const rows = await db
    .select({ playerId: msrSubscriptions.playerId, mode: msrSubscriptions.mode, peer: msrSubscriptions.peer, listBytes: msrSubscriptions.listBytes, updatedAt: msrSubscriptions.updatedAt })
    .from(msrSubscriptions)
    .where(and(eq(msrSubscriptions.tokenName, tokenName), eq(msrSubscriptions.region, region)))
    .orderBy(asc(msrSubscriptions.position));
  return subscriptionOf(rows);
}
