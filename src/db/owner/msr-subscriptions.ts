/**
 * lunabot's `/msr` subscription lists, what both stores share: the rules, the read of a list (written once over
 * src/db/dialect/), and the job queue's test of a subscribed player (subscribedPlayer: a subscribed player's save
 * goes first). The PUT is a twin: SQLite's in one in-process transaction (sqlite-msr-subscriptions.ts),
 * PostgreSQL's in one statement, one round trip, since lunabot PUTs every few seconds (pg-msr-subscriptions.ts).
 */
import { sha256Hex } from "../../sha256.ts";
import type { MsrSubscription, SubscribedPair } from "../../store/model/owner.ts";
import { read, type Reader } from "../dialect/statements.ts";

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

/**
 * SQL text, true when a bot's list PUT since `since` names the player (`player`: SQL expressions), for the job
 * queue (src/db/jobs/statements.ts, written once for both stores): a probe of msr_subscription_players_player_idx
 * and of the list's key, made once when the job is queued, not per claim. A list nobody PUT for a day counts no
 * more, swept or not. A `haruki` pair reads another service's copy, not ours (the PUT also marks so a player the
 * token may not read): it gives no priority.
 */
export const subscribedPlayer = (player: string, since: string) =>
  `EXISTS (SELECT 1 FROM msr_subscription_players JOIN msr_subscriptions ON msr_subscriptions.token_name = msr_subscription_players.token_name AND msr_subscriptions.region = msr_subscription_players.region
    WHERE msr_subscription_players.player_id = ${player} AND msr_subscription_players.mode <> 'haruki' AND msr_subscriptions.updated_at >= ${since})`;

type ListRow = { peer: string; listBytes: number; updatedAt: number; playerId: string | null; mode: string | null };
const LIST = read<ListRow>(
  `SELECT l.peer, l.list_bytes AS "listBytes", l.updated_at AS "updatedAt", p.player_id AS "playerId", p.mode
   FROM msr_subscriptions l LEFT JOIN msr_subscription_players p ON p.token_name = l.token_name AND p.region = l.region
   WHERE l.token_name = $1 AND l.region = $2 ORDER BY p.position`,
  { updatedAt: "int" },
);

/** The token's list for `region`: one read by the primary keys. */
export async function msrSubscription(db: Reader, tokenName: string, region: string): Promise<MsrSubscription | null> {
  return subscriptionOf(await db.all(LIST, [tokenName, region]));
}
