/**
 * The player's history and newest maps on SQLite: their queries seek by index, not a scan (SQLite's query plan). What
 * they read (the last 30 days, newest first, at most HISTORY_ROWS) runs on both stores in read-models.*.contract.test.ts.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { sqliteText } from "../../src/db/dialect/statements.ts";
import { MAPS_OF_PLAYER } from "../../src/db/read-models/pages.ts";
import { HISTORY_QUERY } from "../../src/db/read-models/player-history.ts";
import { openHarness, type Harness } from "../helpers/pipeline-harness.ts";

const PLAYER = "7488393821744390161";

let h: Harness;
beforeEach(() => {
  h = openHarness();
});
afterEach(() => h.close());

test("the query seeks by the saves_player_idx index (player, then time), not a scan", () => {
  const plan = h.db.$client
    .query(`EXPLAIN QUERY PLAN ${sqliteText(HISTORY_QUERY.sql)}`)
    .all(PLAYER, 0, 1) as { detail: string }[];
  expect(plan.map((row) => row.detail).join("\n")).toMatch(/SEARCH s USING INDEX saves_player_idx \(player_id=\? AND received_at>\?\)/);
});

test("a player's newest maps (the player's page, /players/<id>, the status page) seek archives_player_idx, not a scan and a sort", () => {
  const plan = h.db.$client.query(`EXPLAIN QUERY PLAN ${sqliteText(MAPS_OF_PLAYER.sql)}`).all(PLAYER, 1) as { detail: string }[];
  const details = plan.map((row) => row.detail).join("\n");
  expect(details).toMatch(/SEARCH a USING INDEX archives_player_idx \(player_id=\?\)/);
  expect(details).not.toContain("TEMP B-TREE");
});
