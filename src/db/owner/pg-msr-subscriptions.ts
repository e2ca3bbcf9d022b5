/**
 * lunabot's `/msr` subscription lists on a hub's PostgreSQL, the same rows as SQLite's (sqlite-msr-subscriptions.ts),
 * so the PUT and the GET that follows may reach different processes. A PUT is one statement (one round trip): the
 * lists a day old swept (their pairs by the foreign key's cascade), the list's row upserted, and only when its
 * pairs changed, the pairs upserted by position and the old tail deleted. No two of its parts touch one row.
 * Two PUTs of one token and region at once (two bots sharing a token) may leave the longer list's tail behind the
 * shorter (neither saw the other's rows): a pair past the list's length counts as a change, so the next PUT mends it.
 */
import { sql } from "drizzle-orm";
import { listSha256, SUBSCRIPTION_KEEP_MS } from "./msr-subscriptions.ts";
import type { PgDb } from "../pg/open.ts";
import type { SubscriptionList } from "../../store/model/owner.ts";

export async function pgPutMsrSubscription(db: PgDb, tokenName: string, region: string, list: SubscriptionList, now: number): Promise<void> {
  const ofList = sql`token_name = ${tokenName} AND region = ${region}`;
  const sha256 = listSha256(list.pairs);
  const texts = (values: string[]) => sql.join(values.map((value) => sql`${value}::text`), sql`, `);
  const uids = texts(list.pairs.map((pair) => pair.uid));
  const modes = texts(list.pairs.map((pair) => pair.mode));
  const newPairs =
    list.pairs.length === 0
      ? sql``
      : sql`, pairs AS (INSERT INTO msr_subscription_players (token_name, region, position, player_id, mode)
          SELECT ${tokenName}::text, ${region}::text, (ord - 1)::int, uid, mode FROM unnest(ARRAY[${uids}], ARRAY[${modes}]) WITH ORDINALITY AS pair(uid, mode, ord)
          WHERE (SELECT yes FROM changed)
          ON CONFLICT (token_name, region, position) DO UPDATE SET player_id = excluded.player_id, mode = excluded.mode)`;
  // Data-modifying CTEs run whether or not the statement reads them.
  await db.execute(sql`
    WITH swept AS (DELETE FROM msr_subscriptions WHERE updated_at < ${now - SUBSCRIPTION_KEEP_MS} AND NOT (${ofList})),
    changed AS (SELECT NOT EXISTS (SELECT 1 FROM msr_subscriptions WHERE ${ofList} AND list_sha256 = ${sha256})
      OR EXISTS (SELECT 1 FROM msr_subscription_players WHERE ${ofList} AND position >= ${list.pairs.length}) AS yes),
    head AS (INSERT INTO msr_subscriptions (token_name, region, peer, list_bytes, list_sha256, updated_at)
      VALUES (${tokenName}, ${region}, ${list.peer}, ${list.bytes}, ${sha256}, ${now})
      ON CONFLICT (token_name, region) DO UPDATE SET peer = excluded.peer, list_bytes = excluded.list_bytes, list_sha256 = excluded.list_sha256, updated_at = excluded.updated_at),
    tail AS (DELETE FROM msr_subscription_players WHERE ${ofList} AND position >= ${list.pairs.length} AND (SELECT yes FROM changed))
    ${newPairs}
    SELECT 1`);
}
