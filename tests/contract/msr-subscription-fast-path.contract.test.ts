/**
 * PostgreSQL's one-statement `/msr` PUT (src/db/owner/pg-msr-subscriptions.ts pgPutMsrSubscription) is a shortcut of
 * the rule (src/db/owner/msr-subscriptions.ts putSubscription, SQLite's PUT): the same PUTs through each, on two
 * databases, must leave every table the same, column for column, after every PUT. The tables and their columns are
 * read from the hub's schema, so a column added there is compared unasked.
 */
import { describe, expect, test } from "bun:test";
import { pgFlow } from "../../src/db/dialect/pg.ts";
import { putSubscription, SUBSCRIPTION_KEEP_MS } from "../../src/db/owner/msr-subscriptions.ts";
import { pgPutMsrSubscription } from "../../src/db/owner/pg-msr-subscriptions.ts";
import type { PgDb } from "../../src/db/pg/open.ts";
import type { SubscriptionList } from "../../src/store/model/owner.ts";
import { contents, fastAndRule } from "../helpers/hub-table-contents.ts";
import { POSTGRES_MISSING } from "../helpers/postgres.ts";

const T0 = 1_800_000_000_000;
const [A, B, C] = ["7488393821744390161", "1234567890123456789", "9000000000000000001"];
const list = (uids: string[], peer = "198.51.100.1"): SubscriptionList => ({ pairs: uids.map((uid, i) => ({ uid, mode: i % 2 ? "suite" : "latest" })), peer, bytes: 20 + uids.length * 30 });

type Step = {
  what: string;
  put: [tokenName: string, region: string, list: SubscriptionList, now: number];
  /** Done to both databases before the PUT (rows another PUT, or the owner, left). */
  before?: (db: PgDb) => Promise<unknown>;
  /** Rows each table holds after it, as the rule leaves them: the comparison is not of empty tables. */
  lists: number;
  pairs: number;
};

const STEPS: Step[] = [
  { what: "a new list", put: ["bot", "cn", list([A, B]), T0], lists: 1, pairs: 2 },
  // Pairs changed behind the store's back stay: the same list again rewrites the list's row only.
  { what: "the same list again", put: ["bot", "cn", list([A, B], "198.51.100.2"), T0 + 1_000], before: (db) => db.$client`UPDATE msr_subscription_players SET mode = 'local'`, lists: 1, pairs: 2 },
  { what: "a longer list", put: ["bot", "cn", list([B, A, C]), T0 + 2_000], lists: 1, pairs: 3 },
  { what: "a shorter list (the old tail deleted)", put: ["bot", "cn", list([C]), T0 + 3_000], lists: 1, pairs: 1 },
  {
    what: "the same list with a tail two PUTs at once left behind",
    put: ["bot", "cn", list([C]), T0 + 4_000],
    before: (db) => db.$client`INSERT INTO msr_subscription_players (token_name, region, position, player_id, mode) VALUES ('bot', 'cn', 1, ${A}, 'latest')`,
    lists: 1,
    pairs: 1,
  },
  { what: "an empty list", put: ["bot", "cn", list([]), T0 + 5_000], lists: 1, pairs: 0 },
  { what: "another token's list in another region", put: ["other", "jp", list([B, C]), T0 + 6_000], lists: 2, pairs: 2 },
  { what: "a list sent again a day later: the other list, a day old, swept with its pairs", put: ["bot", "cn", list([A]), T0 + 6_000 + SUBSCRIPTION_KEEP_MS + 1], lists: 1, pairs: 1 },
];

describe.skipIf(POSTGRES_MISSING !== null)("lunabot's /msr PUT on PostgreSQL: the one-statement path writes what the rule writes", () => {
  const dbs = fastAndRule();

  test("the same PUTs leave every column of every table the same on both paths, after each PUT", async () => {
    const { fast, rule } = dbs;
    for (const { what, put, before, lists, pairs } of STEPS) {
      for (const db of [fast, rule]) await before?.(db);
      await pgPutMsrSubscription(fast, ...put);
      await rule.transaction((tx) => pgFlow(tx, putSubscription(...put)));
      const [fastRows, ruleRows] = await Promise.all([contents(fast), contents(rule)]);
      expect({ what, lists: ruleRows.msr_subscriptions!.length, pairs: ruleRows.msr_subscription_players!.length }).toEqual({ what, lists, pairs });
      expect({ what, rows: fastRows }).toEqual({ what, rows: ruleRows });
    }
  }, 60_000);
});
