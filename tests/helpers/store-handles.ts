/**
 * The database handles a store fixture opens (tests/helpers/*-stores.ts), and their closing: SQLite's file in a temp
 * folder, or a hub's PostgreSQL database (one per test file, emptied for each fixture); `another` opens connections
 * of their own, as a second process has.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Db } from "../../src/db/open.ts";
import { openPostgres, type PgDb } from "../../src/db/pg/open.ts";
import { databaseForThisFile } from "./postgres.ts";

/** One deployment's fixtures of a store's contract test: its name, and how a test opens a fresh fixture. */
export interface FixtureKind<F> {
  name: "sqlite" | "postgres";
  open: () => Promise<F>;
}

/** A kind whose fixtures share what `prepare` readies once (PostgreSQL's server and database: seconds on a first start). */
export interface PreparedFixtureKind<F> extends FixtureKind<F> {
  prepare: () => Promise<unknown>;
}

export interface Handles<D> {
  db: D;
  another: () => Promise<D>;
  close: () => Promise<void>;
}

export function sqliteHandles(prefix: string): Handles<Db> & { dir: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, "ingest.sqlite");
  const handles = [openDatabase(path)];
  return {
    db: handles[0]!,
    dir,
    another: async () => handles[handles.push(openDatabase(path)) - 1]!,
    close: async () => {
      for (const handle of handles) handle.$client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The migrated database of the test file that calls it, made once (PostgreSQL's first start takes seconds). */
export function pgDatabaseOfFile(): () => Promise<string> {
  let url: Promise<string> | undefined;
  return () => (url ??= databaseForThisFile("migrated"));
}

/** Opens the database (`truncate`: the tables emptied first, a statement's table list) with `maxConnections` a handle. */
export async function pgHandles(url: string, truncate: string | null, maxConnections = 4): Promise<Handles<PgDb> & { open: (connections: number) => Promise<PgDb> }> {
  const handles = [await openPostgres(url, { maxConnections })];
  if (truncate !== null) await handles[0]!.$client.unsafe(`TRUNCATE ${truncate}`);
  const open = async (connections: number) => handles[handles.push(await openPostgres(url, { maxConnections: connections })) - 1]!;
  return {
    db: handles[0]!,
    another: () => open(maxConnections),
    open,
    close: async () => void (await Promise.all(handles.map((handle) => handle.$client.end()))),
  };
}
