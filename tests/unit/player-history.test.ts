/** The player's history read model: the last 30 days of one player's archives, newest first, never more than HISTORY_ROWS. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { HISTORY_QUERY } from "../../src/db/read-models/player-history.ts";
import { MAPS_OF_PLAYER } from "../../src/db/read-models/pages.ts";
import { sqliteText } from "../../src/db/dialect/sqlite.ts";
import { sqlitePageReads } from "../../src/db/read-models/sqlite.ts";
import { insertSave, openHarness, type Harness } from "../helpers/pipeline-harness.ts";
import { HISTORY_DAYS, HISTORY_ROWS } from "../../src/store/model/pages.ts";

const PLAYER = "7488393821744390161";
const OTHER = "1234567890123456789";
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const HOUR = 60 * 60 * 1000;
const digest = (name: string) => JSON.stringify({ partial: false, rare: [{ name, tier: "rare", total: 1 }], newSongs: [], more: 0, sites: [{ siteId: 6, name: "Flower garden" }] });

let h: Harness;
beforeEach(() => {
  h = openHarness();
});
afterEach(() => h.close());

function archived(receivedAt: number, playerId = PLAYER, files = ["save.bin", "site_6.png", "site_5.png", "overview.png"]): number {
  const saveId = insertSave(h.db, receivedAt, playerId);
  h.db.$client
    .query("INSERT INTO archives (save_id, player_id, rel_path, token, files, digest, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
    .run(saveId, playerId, `by-id/${saveId}`, saveId.toString(16).padStart(32, "0"), JSON.stringify(files), digest(`find ${saveId}`), receivedAt);
  return saveId;
}

test("the last 30 days of this player only, newest first, overview then sites by id", async () => {
  const old = archived(NOW - HISTORY_DAYS * 24 * HOUR - 1);
  const edge = archived(NOW - HISTORY_DAYS * 24 * HOUR);
  const newest = archived(NOW - HOUR);
  const middle = archived(NOW - 5 * 24 * HOUR);
  archived(NOW - 2 * HOUR, OTHER);
  insertSave(h.db, NOW - 3 * HOUR, PLAYER); // not archived (yet): nothing to open

  const history = await sqlitePageReads(h.db).history(PLAYER, NOW);
  expect(history.map((refresh) => refresh.saveId)).toEqual([newest, middle, edge]);
  expect(history.map((refresh) => refresh.saveId)).not.toContain(old);
  expect(history[0]!.maps).toEqual([
    { file: "overview.png", label: "Overview" },
    { file: "site_5.png", label: "Site 5" },
    { file: "site_6.png", label: "Flower garden" },
  ]);
  expect(history[0]!.digest?.rare[0]?.name).toBe(`find ${newest}`);
});

test(`never more than ${HISTORY_ROWS} refreshes, the newest kept`, async () => {
  const ids = h.db.transaction(() => Array.from({ length: HISTORY_ROWS + 10 }, (_, i) => archived(NOW - i * 5 * HOUR)));
  const history = await sqlitePageReads(h.db).history(PLAYER, NOW);
  expect(history.length).toBe(HISTORY_ROWS);
  expect(history.map((refresh) => refresh.saveId)).toEqual(ids.slice(0, HISTORY_ROWS));
});

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
