/**
 * The owners' views (drizzle/0019_owner_views.sql, drizzle/pg/0009_owner_views.sql) on rows written as the service
 * writes them: the same names and columns and the same answers on SQLite and PostgreSQL; each region's local time as
 * the service's own zones (Intl's tz data) give it, EN's daylight saving at its edges included (SQLite's written
 * rule against PostgreSQL's tz database); kinds and states in words; nothing secret. And a later migration that
 * rebuilds a table the views read still runs on SQLite.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrateBesideViews, openDatabase } from "../../src/db/sqlite/open.ts";
import { openPostgres } from "../../src/db/pg/open.ts";
import { REGION_ZONE, zonedParts } from "../../src/i18n/zones.ts";
import type { Region } from "../../src/capture/regions.ts";
import { databaseForThisFile, POSTGRES_MISSING } from "../helpers/postgres.ts";
import { pgReader, sqliteReader, type Row, type ViewReader } from "../helpers/view-readers.ts";

const VIEWS = ["view_players", "view_pushes", "view_queue", "view_saves"];
const SECRET = "Secret-7f3a9c";
const at = (iso: string) => Date.parse(iso);

/** Received instants: every region at one moment, and EN around its switches (2026, 2027, 2030) and in between. */
const RECEIVED: [Region | null, number][] = [
  ...(["cn", "tw", "jp", "kr", "en"] as const).map((region): [Region, number] => [region, at("2026-03-23T10:31:37Z")]),
  ...[
    "2026-03-08T09:59:59Z", "2026-03-08T10:00:00Z", "2026-11-01T08:59:59Z", "2026-11-01T09:00:00Z",
    "2027-03-14T09:59:59Z", "2027-03-14T10:00:00Z", "2030-11-03T08:59:59Z", "2030-11-03T09:00:00Z",
    "2026-07-01T00:00:00Z", "2026-12-31T23:30:00Z", "2028-02-29T12:00:05Z", "2027-01-01T07:59:59Z",
  ].map((iso): [Region, number] => ["en", at(iso)]),
  [null, at("2026-03-23T10:31:37Z")],
];

/** The service's own rendering of a moment in a region's zone, with its seconds. */
function expectedLocal(ms: number, region: Region | null): string | null {
  if (region === null) return null;
  const parts = zonedParts(new Date(ms), REGION_ZONE[region]);
  return `${parts.date} ${parts.time}:${new Date(ms).toISOString().slice(17, 19)} ${parts.zone}`;
}
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

/** The rows, in SQL both stores take (TRUE is 1 on SQLite). */
function fixtureStatements(): string[] {
  const statements = RECEIVED.map(([region, ms], i) => `INSERT INTO saves (id, sha256, player_id, source, size, received_at, region, drops_fingerprint) VALUES (${i + 1}, 'sha${i}', '70000000000000000${String(i).padStart(2, "0")}', 'upload', 1000, ${ms}, ${region === null ? "NULL" : `'${region}'`}, 'fp')`);
  const kinds = RECEIVED.length;
  statements.push(
    `INSERT INTO saves (id, sha256, player_id, source, size, received_at, region, data_type, drops_fingerprint) VALUES (${kinds + 1}, 'party', '7000000000000000001', 'report', 500, ${at("2026-03-23T11:00:00Z")}, 'cn', 'mysekai_birthday_party', 'fp')`,
    `INSERT INTO saves (id, sha256, player_id, source, size, received_at, region, partial, drops_fingerprint) VALUES (${kinds + 2}, 'partial', '7000000000000000001', 'upload', 400, ${at("2026-03-23T12:00:00Z")}, 'cn', TRUE, 'fp')`,
    `INSERT INTO saves (id, sha256, player_id, source, size, received_at, region) VALUES (${kinds + 3}, 'unread', '7000000000000000002', 'upload', 300, ${at("2026-03-23T13:00:00Z")}, 'jp')`,
    // An archive written as EN's clocks went back: its own offset, not its save's.
    `INSERT INTO archives (save_id, player_id, rel_path, token, files, created_at) VALUES (8, '7000000000000000007', 'by-id/7000000000000000007/20261101_090000', '${SECRET}-map-token', '[]', ${at("2026-11-01T09:00:00Z")})`,
    `INSERT INTO jobs (save_id, stage, state, attempts, run_at, last_error, created_at, updated_at) VALUES
      (1, 'done', 'done', 0, 0, NULL, 0, 0), (2, 'generate', 'pending', 0, 0, NULL, 0, 0), (3, 'generate', 'pending_retry', 1, ${at("2030-01-01T00:00:00Z")}, 'busy, tried again', 0, 0),
      (4, 'generate', 'waiting_for_key', 0, 0, 'no AES key configured', 0, 0), (5, 'notify', 'running', 1, 0, NULL, 0, 0),
      (${kinds + 3}, 'generate', 'failed', 1, 0, 'does not decrypt under any configured key (bad padding)', ${at("2026-03-23T13:00:00Z")}, ${at("2026-03-23T13:00:01Z")})`,
    `INSERT INTO players (player_id, name, token, token_sha256, created_at) VALUES ('7000000000000000001', 'Alice', '${SECRET}-link', '${SECRET}-sha', 0), ('7000000000000000099', 'Bob', '${SECRET}-link2', '${SECRET}-sha2', 0)`,
    `INSERT INTO data_webhooks (url, bearer, check_url, created_at) VALUES ('https://bot.example/${SECRET}', '${SECRET}-bearer', 'https://bot.example/check/${SECRET}', 0)`,
    `INSERT INTO api_tokens (name, token_sha256, created_at) VALUES ('bot', '${SECRET}-api', 0)`,
    `INSERT INTO deliveries (save_id, channel, target, state, attempts, next_attempt_at, last_error, sent_at, created_at) VALUES
      (${kinds + 1}, 'telegram', 'default', 'sent', 1, 0, NULL, ${at("2026-03-23T11:00:05Z")}, ${at("2026-03-23T11:00:01Z")}),
      (${kinds + 1}, 'bark', 'phone', 'failed', 3, 0, 'bark: HTTP 400: device not found', NULL, ${at("2026-03-23T11:00:01Z")}),
      (${kinds + 1}, 'data-webhook', '1', 'pending', 1, ${at("2026-03-23T11:05:00Z")}, 'data-webhook: HTTP 503', NULL, ${at("2026-03-23T11:00:01Z")}),
      (1, 'webhook', 'default', 'pending', 0, ${at("2026-03-23T10:31:40Z")}, NULL, NULL, ${at("2026-03-23T10:31:38Z")})`,
  );
  return statements;
}

async function columnsOf(reader: ViewReader, view: string, hub: boolean): Promise<string[]> {
  const rows = hub
    ? await reader.all(`SELECT column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '${view}' ORDER BY ordinal_position`)
    : await reader.all(`SELECT name FROM pragma_table_info('${view}')`);
  return rows.map((row) => row.name as string);
}

async function viewNames(reader: ViewReader, hub: boolean): Promise<string[]> {
  const rows = hub ? await reader.all(`SELECT table_name AS name FROM information_schema.views WHERE table_schema = 'public' ORDER BY 1`) : await reader.all(`SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY 1`);
  return rows.map((row) => row.name as string);
}

/** Everything the views answer, by view, in a fixed order (the `hours_ago` and `seconds` of "now" left out). */
async function answers(reader: ViewReader): Promise<Record<string, Row[]>> {
  const order: Record<string, string> = { view_saves: "save_id", view_pushes: "push_id", view_players: "player_id", view_queue: "job_id" };
  const out: Record<string, Row[]> = {};
  for (const view of VIEWS) out[view] = await reader.all(`SELECT * FROM ${view} ORDER BY ${order[view]}`);
  return out;
}

const stores: { name: string; hub: boolean; skip: boolean; open(): Promise<{ reader: ViewReader; close(): Promise<void> }> }[] = [
  {
    name: "SQLite",
    hub: false,
    skip: false,
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), "owner-views-"));
      const db = openDatabase(join(dir, "ingest.sqlite"));
      db.$client.transaction(() => fixtureStatements().forEach((statement) => db.$client.exec(statement)))();
      const reader = sqliteReader(join(dir, "ingest.sqlite"));
      return { reader, close: async () => (await reader.close(), db.$client.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  },
  {
    name: "PostgreSQL",
    hub: true,
    skip: POSTGRES_MISSING !== null,
    open: async () => {
      const url = await databaseForThisFile("migrated");
      const db = await openPostgres(url, { maxConnections: 2 });
      for (const statement of fixtureStatements()) await db.$client.unsafe(statement);
      // The ids were given: the identity sequences carry on after them.
      await db.$client.end();
      const reader = pgReader(url);
      return { reader, close: () => reader.close() };
    },
  },
];

const opened = new Map<string, { reader: ViewReader; close(): Promise<void> }>();
beforeAll(async () => {
  for (const store of stores.filter((s) => !s.skip)) opened.set(store.name, await store.open());
}, 120_000);
afterAll(async () => {
  for (const each of opened.values()) await each.close();
});

for (const store of stores) {
  describe.skipIf(store.skip)(`owners' views on ${store.name}`, () => {
    const reader = () => opened.get(store.name)!.reader;

    test("times in UTC and in the region's zone, as the service's zones render them (EN's daylight saving at its edges)", async () => {
      const rows = await reader().all(`SELECT save_id, received_utc, received_local FROM view_saves WHERE save_id <= ${RECEIVED.length} ORDER BY save_id`);
      expect(rows).toEqual(RECEIVED.map(([region, ms], i) => ({ save_id: i + 1, received_utc: utc(ms), received_local: expectedLocal(ms, region) })));
      const archived = await reader().all(`SELECT archived_utc, archived_local, archive_folder FROM view_saves WHERE save_id = 8`);
      // Received 08:59:59 UTC (still UTC-7), archived a second later in UTC-8.
      expect(archived).toEqual([{ archived_utc: "2026-11-01 09:00:00", archived_local: "2026-11-01 01:00:00 UTC-8", archive_folder: "by-id/7000000000000000007/20261101_090000" }]);
      expect((await reader().all(`SELECT received_local FROM view_saves WHERE save_id = 8`))[0]!.received_local).toBe("2026-11-01 01:59:59 UTC-7");
    });

    test("kinds, states and failures in words", async () => {
      const rows = await reader().all(`SELECT save_id, kind, state, stage, failure FROM view_saves WHERE save_id IN (1, 2, 3, 4, 5, 6, 19, 20, 21) ORDER BY save_id`);
      expect(rows).toEqual([
        { save_id: 1, kind: "full save", state: "done", stage: "done", failure: null },
        { save_id: 2, kind: "full save", state: "waiting", stage: "generate", failure: null },
        { save_id: 3, kind: "full save", state: "retrying", stage: "generate", failure: "busy, tried again" },
        { save_id: 4, kind: "full save", state: "waiting for a key", stage: "generate", failure: "no AES key configured" },
        { save_id: 5, kind: "full save", state: "running", stage: "notify", failure: null },
        // No job: retention removed it once done.
        { save_id: 6, kind: "full save", state: "done", stage: null, failure: null },
        { save_id: 19, kind: "party refresh", state: "done", stage: null, failure: null },
        { save_id: 20, kind: "partial", state: "done", stage: null, failure: null },
        { save_id: 21, kind: "not read yet", state: "failed", stage: "generate", failure: "does not decrypt under any configured key (bad padding)" },
      ]);
      expect(await reader().all(`SELECT player_id, player_name FROM view_saves WHERE save_id = 19`)).toEqual([{ player_id: "7000000000000000001", player_name: "Alice" }]);
    });

    test("pushes, players and the queue", async () => {
      expect(await reader().all(`SELECT save_id, channel, route, state, attempts, last_error, sent_utc, next_try_utc FROM view_pushes ORDER BY push_id`)).toEqual([
        { save_id: 19, channel: "telegram", route: "default", state: "sent", attempts: 1, last_error: null, sent_utc: "2026-03-23 11:00:05", next_try_utc: null },
        { save_id: 19, channel: "bark", route: "phone", state: "failed", attempts: 3, last_error: "bark: HTTP 400: device not found", sent_utc: null, next_try_utc: null },
        { save_id: 19, channel: "data-webhook", route: "1", state: "retrying", attempts: 1, last_error: "data-webhook: HTTP 503", sent_utc: null, next_try_utc: "2026-03-23 11:05:00" },
        { save_id: 1, channel: "webhook", route: "default", state: "waiting", attempts: 0, last_error: null, sent_utc: null, next_try_utc: "2026-03-23 10:31:40" },
      ]);
      const players = await reader().all(`SELECT * FROM view_players WHERE player_id IN ('7000000000000000001', '7000000000000000002', '7000000000000000099') ORDER BY player_id`);
      expect(players).toEqual([
        // Its data webhook's delivery is a bot's, not a push to the player.
        { player_id: "7000000000000000001", name: "Alice", last_save_utc: "2026-03-23 12:00:00", last_push_utc: "2026-03-23 11:00:05", saves: 3, failed_saves: 0, pushes_sent: 1, pushes_failed: 1 },
        { player_id: "7000000000000000002", name: null, last_save_utc: "2026-03-23 13:00:00", last_push_utc: null, saves: 2, failed_saves: 1, pushes_sent: 0, pushes_failed: 0 },
        { player_id: "7000000000000000099", name: "Bob", last_save_utc: null, last_push_utc: null, saves: 0, failed_saves: 0, pushes_sent: 0, pushes_failed: 0 },
      ]);
      const queue = await reader().all(`SELECT save_id, state, since_utc, next_run_utc, for_how_long FROM view_queue ORDER BY job_id`);
      expect(queue.map(({ for_how_long, ...row }) => row)).toEqual([
        { save_id: 2, state: "waiting", since_utc: "1970-01-01 00:00:00", next_run_utc: "1970-01-01 00:00:00" },
        { save_id: 3, state: "retrying", since_utc: "1970-01-01 00:00:00", next_run_utc: "2030-01-01 00:00:00" },
        { save_id: 4, state: "waiting for a key", since_utc: "1970-01-01 00:00:00", next_run_utc: null },
        { save_id: 5, state: "running", since_utc: "1970-01-01 00:00:00", next_run_utc: null },
        // A failed job: since it failed.
        { save_id: 21, state: "failed", since_utc: "2026-03-23 13:00:01", next_run_utc: null },
      ]);
      const failed = (await reader().all(`SELECT seconds, for_how_long FROM view_queue WHERE save_id = 21`))[0]!;
      const seconds = Math.floor((Date.now() - at("2026-03-23T13:00:01Z")) / 1000);
      expect(Math.abs((failed.seconds as number) - seconds)).toBeLessThan(120);
      expect(failed.for_how_long).toBe(`${Math.floor((failed.seconds as number) / 86400)} d ${Math.floor(((failed.seconds as number) % 86400) / 3600)} h`);
    });

    test("nothing secret in any view: no link token, API token, webhook URL or bearer, no map token", async () => {
      for (const view of VIEWS) {
        const columns = await columnsOf(reader(), view, store.hub);
        expect(columns.filter((column) => /token|url|bearer|secret|key|encrypted/i.test(column))).toEqual([]);
        expect(JSON.stringify(await reader().all(`SELECT * FROM ${view}`))).not.toContain(SECRET);
      }
    });
  });
}

describe.skipIf(POSTGRES_MISSING !== null)("the two stores' views", () => {
  test("the same views with the same columns, giving the same answers", async () => {
    const sqlite = opened.get("SQLite")!.reader;
    const pg = opened.get("PostgreSQL")!.reader;
    expect(await viewNames(sqlite, false)).toEqual(VIEWS);
    expect(await viewNames(pg, true)).toEqual(VIEWS);
    for (const view of VIEWS) expect(await columnsOf(pg, view, true)).toEqual(await columnsOf(sqlite, view, false));
    const withoutNow = (all: Record<string, Row[]>) => JSON.parse(JSON.stringify(all, (key, value) => (key === "hours_ago" || key === "seconds" || key === "for_how_long" ? undefined : value)));
    expect(withoutNow(await answers(pg))).toEqual(withoutNow(await answers(sqlite)));
  });
});

describe("a later migration beside the views (SQLite)", () => {
  test("drizzle's rebuild of a table a view reads (create __new_saves, copy, drop, rename) still runs, and the view reads the new table", () => {
    const dir = mkdtempSync(join(tmpdir(), "views-rebuild-"));
    try {
      const folder = join(dir, "drizzle");
      cpSync(join(import.meta.dir, "../../drizzle"), folder, { recursive: true, filter: (path) => !path.includes("/pg") });
      const journalPath = join(folder, "meta/_journal.json");
      const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number; when: number; tag: string }[] };
      const last = journal.entries.at(-1)!;
      journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1, tag: "9999_rebuild_saves" });
      writeFileSync(journalPath, JSON.stringify(journal));
      const columns = `"id", "sha256", "player_id", "source", "encrypted", "size", "received_at", "outputs", "drops_fingerprint", "repeat_of", "region", "data_type", "partial"`;
      writeFileSync(
        join(folder, "9999_rebuild_saves.sql"),
        [
          `CREATE TABLE \`__new_saves\` (\`id\` integer PRIMARY KEY AUTOINCREMENT NOT NULL, \`sha256\` text NOT NULL, \`player_id\` text NOT NULL, \`source\` text NOT NULL, \`encrypted\` blob, \`size\` integer NOT NULL, \`received_at\` integer NOT NULL, \`outputs\` text, \`drops_fingerprint\` text, \`repeat_of\` integer, \`region\` text, \`data_type\` text DEFAULT 'mysekai' NOT NULL, \`partial\` integer DEFAULT false NOT NULL, \`extra\` text);`,
          `INSERT INTO \`__new_saves\`(${columns}) SELECT ${columns} FROM \`saves\`;`,
          "DROP TABLE `saves`;",
          "ALTER TABLE `__new_saves` RENAME TO `saves`;",
        ].join("--> statement-breakpoint\n"),
      );
      const sqlite = new Database(join(dir, "x.sqlite"));
      const db = drizzle({ client: sqlite }) as unknown as Parameters<typeof migrateBesideViews>[0];
      migrateBesideViews(db, folder);
      sqlite.exec(`INSERT INTO saves (sha256, player_id, source, size, received_at, region, extra) VALUES ('a', '7000000000000000001', 'upload', 1, ${at("2026-03-23T10:31:37Z")}, 'cn', 'x')`);
      expect(sqlite.query("SELECT received_local, kind FROM view_saves").all()).toEqual([{ received_local: "2026-03-23 18:31:37 UTC+8", kind: "not read yet" }]);
      sqlite.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
