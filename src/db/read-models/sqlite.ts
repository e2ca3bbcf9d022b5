/** The read models over SQLite: its Reader (reader.ts) and the reads written once over it. */
import type { CaptureHealthReads, PageReads, SpawnReads } from "../../store/ports/pages.ts";
import type { Db } from "../open.ts";
import { captureHealthReads } from "./capture-health.ts";
import { pageReads } from "./pages.ts";
import { decodeRows, type ColumnKind, type Reader } from "./reader.ts";
import { spawnReads } from "./spawns.ts";

/** PostgreSQL's `$n` placeholders as SQLite's `?n` (the same numbered parameter). */
export const sqliteText = (sql: string) => sql.replace(/\$(\d+)/g, "?$1");

const decode = (kind: ColumnKind, value: unknown) => (kind === "bool" ? value === 1 : kind === "json" ? JSON.parse(value as string) : value);

/** bun:sqlite caches each text's compiled statement (Database.query), so a read compiles once per connection. */
export function sqliteReader(db: Db): Reader {
  return {
    all: async (query, params) => decodeRows(db.$client.query(sqliteText(query.sql)).all(...params) as Record<string, unknown>[], query.kinds, decode),
  };
}

/** Bytes the SQLite file holds (pages in use and free pages). */
export function databaseBytes(db: Db): number {
  const pages = db.$client.query("PRAGMA page_count").get() as { page_count: number };
  const size = db.$client.query("PRAGMA page_size").get() as { page_size: number };
  return pages.page_count * size.page_size;
}

export const sqlitePageReads = (db: Db): PageReads => pageReads(sqliteReader(db), async () => databaseBytes(db));
export const sqliteCaptureHealthReads = (db: Db): CaptureHealthReads => captureHealthReads(sqliteReader(db));
export const sqliteSpawnReads = (db: Db): SpawnReads => spawnReads(sqliteReader(db));
