/** Opens the SQLite file with the durability settings the service promises, and applies migrations. */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { logInfo, logWarn } from "../../log.ts";
import { projectPath } from "../../runtime-files.ts";
import * as schema from "../schema.ts";

export type Db = BunSQLiteDatabase<typeof schema> & { $client: Database };

/** An open transaction (or a savepoint in one): a function that takes it must run inside one; the database itself does not fit. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * The WAL is cut back to this size whenever it is reset after a checkpoint (and the checkpointer truncates it
 * once it grows past it): without a limit it keeps the size of its largest burst until shutdown.
 */
export const DEFAULT_WAL_LIMIT_BYTES = 16 * 1024 * 1024;

export function openDatabase(path: string, walLimitBytes = DEFAULT_WAL_LIMIT_BYTES): Db {
  mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  enableIncrementalVacuum(sqlite, path);
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec(`PRAGMA journal_size_limit = ${walLimitBytes}`);
  // FULL: a 200 must survive a power cut, not only a process crash.
  sqlite.exec("PRAGMA synchronous = FULL");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  reuseCompiledStatements(sqlite);
  const db = drizzle({ client: sqlite, schema });
  // Migrations run inside one transaction, where `PRAGMA foreign_keys` is a no-op: a table rebuild (drop and
  // re-create) with the keys on would cascade-delete every row that refers to the rebuilt table.
  sqlite.exec("PRAGMA foreign_keys = OFF");
  migrateBesideViews(db, projectPath("drizzle"));
  const broken = sqlite.query("PRAGMA foreign_key_check").all();
  if (broken.length > 0) throw new Error(`database has ${broken.length} broken foreign key reference(s) after migration`);
  sqlite.exec("PRAGMA foreign_keys = ON");
  return db;
}

/**
 * drizzle rebuilds a table (create `__new_x`, copy, drop `x`, rename) to change a column; since SQLite 3.26 a rename
 * checks every view, and the owners' views (view_saves …) name the dropped table, so the rename would fail and the
 * service would not start. The legacy rename leaves views alone: they name the table, which is there again after it.
 */
export function migrateBesideViews(db: Db, migrationsFolder: string): void {
  db.$client.exec("PRAGMA legacy_alter_table = ON");
  try {
    migrate(db, { migrationsFolder });
  } finally {
    db.$client.exec("PRAGMA legacy_alter_table = OFF");
  }
}

/** Distinct statements the service runs; bun:sqlite keeps the most recent this many compiled (LRU by SQL text). */
const COMPILED_STATEMENTS = 256;

/**
 * drizzle compiles every statement anew through `prepare()` (~0.1 ms each, a few dozen a save on the HTTP
 * thread); bun:sqlite's `query()` hands back the compiled one for the same SQL text. drizzle runs each
 * statement to completion and never finalizes one, so a shared compiled statement is safe.
 */
function reuseCompiledStatements(sqlite: Database): void {
  Database.MAX_QUERY_CACHE_SIZE = Math.max(Database.MAX_QUERY_CACHE_SIZE, COMPILED_STATEMENTS);
  sqlite.prepare = ((sql: string) => sqlite.query(sql)) as Database["prepare"];
}

/**
 * Runs `write` (its own transaction or autocommit statements) without waiting for the disk: WAL with
 * synchronous=NORMAL, so its commit survives a crash of this process but may be undone by a power cut, back
 * to the last commit that did fsync (a later FULL commit makes it durable too: the WAL is synced in order).
 * Only for writes that are replayed when undone: the pipeline's claims, leases and stage records (every
 * stage but notify runs again harmlessly). Accepted uploads and reports, and push deliveries, keep FULL.
 */
export function replayableCommit<T>(db: Db, write: () => T): T {
  db.$client.exec("PRAGMA synchronous = NORMAL");
  try {
    return write();
  } finally {
    db.$client.exec("PRAGMA synchronous = FULL");
  }
}

/**
 * Lets the retention sweep give freed pages back (`PRAGMA incremental_vacuum`). On a fresh file the mode is
 * set before the first table exists; an older file made without it is rebuilt once by VACUUM.
 */
function enableIncrementalVacuum(sqlite: Database, path: string): void {
  const INCREMENTAL = 2;
  const mode = () => (sqlite.query("PRAGMA auto_vacuum").get() as { auto_vacuum: number }).auto_vacuum;
  if (mode() === INCREMENTAL) return;
  sqlite.exec("PRAGMA auto_vacuum = INCREMENTAL");
  const pages = (sqlite.query("PRAGMA page_count").get() as { page_count: number }).page_count;
  if (pages === 0 || mode() === INCREMENTAL) return;
  const started = performance.now();
  try {
    sqlite.exec("VACUUM");
  } catch (error) {
    // VACUUM needs room for a copy of the file: on a full disk the service starts anyway, without shrinking.
    logWarn("GC", "could not rebuild the database for incremental vacuum; the next start tries again", { error: String(error).slice(0, 200) });
    return;
  }
  logInfo("GC", "database rebuilt once to enable incremental vacuum", { db: path, pages, ms: Math.round(performance.now() - started) });
}
