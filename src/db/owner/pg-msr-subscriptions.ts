/**
 * lunabot's `/msr` PUT on a hub's PostgreSQL in one statement (one round trip, since lunabot PUTs every few
 * seconds), made of the rule's own texts (./msr-subscriptions.ts putTexts, with the same parameters): the lists a
 * day old swept, whether the pairs change, the list's row upserted, and only when they change, the old tail
 * deleted and the new pairs upserted by position. Each part sees the rows as they were before the statement, as
 * the rule's later statements would (the sweep spares this list; the head's upsert changes no pair). A shortcut of
 * the rule (putSubscription): tests/contract/msr-subscription-fast-path.contract.test.ts runs both on the same PUTs
 * and compares every column of every table.
 */
import { sql } from "drizzle-orm";
import type { SubscriptionList } from "../../store/model/owner.ts";
import { pgFragment } from "../dialect/pg.ts";
import { PG } from "../dialect/primitives.ts";
import type { PgDb } from "../pg/open.ts";
import { putParams, putTexts } from "./msr-subscriptions.ts";

const IF_CHANGED = "(SELECT yes FROM changed)";
const TAIL_IF_CHANGED = putTexts.tail(IF_CHANGED);
const PAIRS_IF_CHANGED = putTexts.pairs(IF_CHANGED)(PG);

export async function pgPutMsrSubscription(db: PgDb, tokenName: string, region: string, list: SubscriptionList, now: number): Promise<void> {
  const params = putParams(tokenName, region, list, now);
  // Data-modifying CTEs run whether or not the statement reads them.
  await db.execute(sql`
    WITH swept AS (${pgFragment(putTexts.sweep, params.sweep)}),
    changed AS (${pgFragment(putTexts.changed, params.changed)}),
    head AS (${pgFragment(putTexts.head, params.head)}),
    tail AS (${pgFragment(TAIL_IF_CHANGED, params.tail)}),
    pairs AS (${pgFragment(PAIRS_IF_CHANGED, params.pairs)})
    SELECT 1`);
}
