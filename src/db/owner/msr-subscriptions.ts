/**
 * lunabot's `/msr` subscription lists (PUT update_msr_sub): per API token and region the last [uid, mode] list, a
 * row for the list and one per pair. Written once for both stores: the PUT's rule (putSubscription), the read of a
 * list, and the job queue's test of a subscribed player (subscribedPlayer: a subscribed player's save goes first).
 * lunabot PUTs its list before every poll, every few seconds, mostly the same: the same list again rewrites the
 * list's row only; another list replaces the pairs. Any PUT sweeps the lists a day old (their pairs go with them,
 * by the foreign key's cascade). SQLite runs the rule in its immediate transaction; a hub's PUT is one statement
 * made of the rule's own texts (pg-msr-subscriptions.ts), held to the rule by
 * tests/contract/msr-subscription-fast-path.contract.test.ts.
 */
import { sha256Hex } from "../../sha256.ts";
import type { MsrSubscription, SubscribedPair, SubscriptionList } from "../../store/model/owner.ts";
import type { Primitives } from "../dialect/primitives.ts";
import { read, run, type Flow, type Param, type Reader } from "../dialect/statements.ts";

/** A list nobody PUT again for a day is swept. */
export const SUBSCRIPTION_KEEP_MS = 24 * 3600_000;

/** What tells one list from another: the same pairs in the same order hash the same. */
const listSha256 = (pairs: SubscribedPair[]) => sha256Hex(JSON.stringify(pairs.map((pair) => [pair.uid, pair.mode])));

type ListRow = { peer: string; listBytes: number; updatedAt: number; playerId: string | null; mode: string | null };

/** The list's row and its pairs' rows as read back (a list's row without pairs is an empty list); null for none. */
function subscriptionOf(rows: ListRow[]): MsrSubscription | null {
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

/**
 * The PUT's texts, each with its parameters (putParams). `onlyIf`: the condition the pairs' writes wait on, TRUE in
 * the rule (which decides between statements), the `changed` CTE in PostgreSQL's one statement, where no part
 * touches a row another part touches (the tail's positions are past the list, the pairs' within it).
 */
export const putTexts = {
  /** Every other list nobody PUT since $3. */
  sweep: `DELETE FROM msr_subscriptions WHERE updated_at < $3 AND NOT (token_name = $1 AND region = $2)`,
  /**
   * Whether the pairs change: another list ($3: its sha256), or a pair past its length ($4), which two PUTs at once
   * may leave on a hub (neither saw the other's pairs), so that the next PUT mends it.
   */
  changed: `SELECT NOT EXISTS (SELECT 1 FROM msr_subscriptions WHERE token_name = $1 AND region = $2 AND list_sha256 = $3)
    OR EXISTS (SELECT 1 FROM msr_subscription_players WHERE token_name = $1 AND region = $2 AND position >= $4) AS yes`,
  head: `INSERT INTO msr_subscriptions (token_name, region, peer, list_bytes, list_sha256, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (token_name, region) DO UPDATE SET peer = excluded.peer, list_bytes = excluded.list_bytes, list_sha256 = excluded.list_sha256, updated_at = excluded.updated_at`,
  /** The old pairs past the new list's length. */
  tail: (onlyIf: string) => `DELETE FROM msr_subscription_players WHERE token_name = $1 AND region = $2 AND position >= $3 AND ${onlyIf}`,
  /** The new pairs by position ($3: a JSON list of {position, uid, mode}), over the old ones at those positions. */
  pairs: (onlyIf: string) => (d: Primitives) =>
    `INSERT INTO msr_subscription_players (token_name, region, position, player_id, mode)
     SELECT CAST($1 AS text), CAST($2 AS text), CAST(pair.position AS integer), pair.uid, pair.mode FROM ${d.jsonRecords("$3", "pair", ["position", "uid", "mode"])} WHERE ${onlyIf}
     ON CONFLICT (token_name, region, position) DO UPDATE SET player_id = excluded.player_id, mode = excluded.mode`,
};

/** Each text's parameters for a PUT of `list` at `now`. */
export function putParams(tokenName: string, region: string, list: SubscriptionList, now: number): Record<keyof typeof putTexts, Param[]> {
  const sha256 = listSha256(list.pairs);
  const length = list.pairs.length;
  return {
    sweep: [tokenName, region, now - SUBSCRIPTION_KEEP_MS],
    changed: [tokenName, region, sha256, length],
    head: [tokenName, region, list.peer, list.bytes, sha256, now],
    tail: [tokenName, region, length],
    pairs: [tokenName, region, JSON.stringify(list.pairs.map((pair, position) => ({ position, uid: pair.uid, mode: pair.mode })))],
  };
}

const SWEEP = read(putTexts.sweep);
const CHANGED = read<{ yes: boolean }>(putTexts.changed, { yes: "bool" });
const HEAD = read(putTexts.head);
const TAIL = read(putTexts.tail("TRUE"));
const PAIRS = read(putTexts.pairs("TRUE"));

/** Keeps `list` as the token's list for `region`, and sweeps every other list a day old: the rule, in one transaction. */
export function* putSubscription(tokenName: string, region: string, list: SubscriptionList, now: number): Flow<void> {
  const params = putParams(tokenName, region, list, now);
  yield* run(SWEEP, params.sweep);
  const [changed] = yield* run(CHANGED, params.changed);
  yield* run(HEAD, params.head);
  if (!changed!.yes) return;
  yield* run(TAIL, params.tail);
  if (list.pairs.length > 0) yield* run(PAIRS, params.pairs);
}
