/** Upgrading a database made by an earlier release keeps every row (a table rebuild must not cascade-delete). */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { openDatabase } from "../../src/db/sqlite/open.ts";

const MIGRATIONS = resolve(import.meta.dir, "..", "..", "drizzle");
const dir = mkdtempSync(join(tmpdir(), "mysekai-migrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database at the first release's schema (only migration 0000 applied), with foreign keys on as the service runs. */
function firstReleaseDatabase(path: string): void {
  const only = join(dir, "first");
  mkdirSync(join(only, "meta"), { recursive: true });
  cpSync(join(MIGRATIONS, "0000_init.sql"), join(only, "0000_init.sql"));
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, "meta", "_journal.json"), "utf8"));
  journal.entries = journal.entries.slice(0, 1);
  writeFileSync(join(only, "meta", "_journal.json"), JSON.stringify(journal));
  const sqlite = new Database(path);
  sqlite.exec("PRAGMA foreign_keys = ON");
  migrate(drizzle({ client: sqlite }), { migrationsFolder: only });
  sqlite.exec(`
    INSERT INTO saves (sha256, player_id, source, encrypted, size, received_at) VALUES ('abc', '7488393821744390161', 'upload', x'00', 1, 1);
    INSERT INTO jobs (save_id, stage, state, run_at, created_at, updated_at) VALUES (1, 'done', 'done', 1, 1, 1);
    INSERT INTO archives (save_id, player_id, rel_path, token, files, created_at) VALUES (1, '7488393821744390161', 'by-id/7488393821744390161/20250101_000000', 't', '[]', 1);
    INSERT INTO deliveries (save_id, channel, target, state, next_attempt_at, created_at) VALUES (1, 'telegram', 'default', 'sent', 1, 1);
    INSERT INTO uploads (id, total_chunks, created_at, updated_at) VALUES ('half-done', 2, 1, 1);
    INSERT INTO upload_chunks (upload_id, chunk_index, size, body) VALUES ('half-done', 0, 3, x'010203');
  `);
  sqlite.close();
}

test("every later migration keeps the saves, jobs, archives, deliveries and open uploads of a first-release database; its archive's folder is claimed by its save", () => {
  const path = join(dir, "ingest.sqlite");
  firstReleaseDatabase(path);
  const db = openDatabase(path);
  const count = (table: string) => (db.$client.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  expect(count("saves")).toBe(1);
  expect(count("jobs")).toBe(1);
  expect(count("archives")).toBe(1);
  // A bucket's second save of that second must never be given this folder on a redraw.
  expect(db.$client.query("SELECT rel_path, save_id FROM archive_folders").all()).toEqual([{ rel_path: "by-id/7488393821744390161/20250101_000000", save_id: 1 }]);
  expect(count("deliveries")).toBe(1);
  expect(count("upload_task_chunks")).toBe(1);
  expect(db.$client.query("SELECT upload_id, bytes FROM upload_tasks").get()).toEqual({ upload_id: "half-done", bytes: 3 });
  expect((db.$client.query("PRAGMA foreign_keys").get() as { foreign_keys: number }).foreign_keys).toBe(1);
  db.$client.close();
});

test("birthday party deliveries stored before the refresh rule become records (saves.partial); saves stay as they were", () => {
  const before = join(dir, "before-party-rule");
  mkdirSync(join(before, "meta"), { recursive: true });
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, "meta", "_journal.json"), "utf8"));
  const index = journal.entries.findIndex((entry: { tag: string }) => entry.tag.endsWith("_party_deliveries_as_records"));
  journal.entries = journal.entries.slice(0, index);
  for (const entry of journal.entries as { tag: string }[]) cpSync(join(MIGRATIONS, `${entry.tag}.sql`), join(before, `${entry.tag}.sql`));
  writeFileSync(join(before, "meta", "_journal.json"), JSON.stringify(journal));
  const path = join(dir, "party.sqlite");
  const sqlite = new Database(path);
  migrate(drizzle({ client: sqlite }), { migrationsFolder: before });
  sqlite.exec(`INSERT INTO saves (sha256, player_id, source, encrypted, size, received_at, data_type) VALUES
    ('save', '7488393821744390161', 'upload', x'00', 1, 1, 'mysekai'), ('party', '7488393821744390161', 'upload', x'00', 1, 2, 'mysekai_birthday_party')`);
  sqlite.close();
  const db = openDatabase(path);
  expect(db.$client.query("SELECT sha256, partial FROM saves ORDER BY id").all()).toEqual([{ sha256: "save", partial: 0 }, { sha256: "party", partial: 1 }]);
  db.$client.close();
});
