/** The read models on a hub's PostgreSQL: its Reader (reader.ts) and the reads written once over it. */
import type { CaptureHealthReads, PageReads, SpawnReads } from "../../store/ports/pages.ts";
import type { PgDb } from "../pg/open.ts";
import { captureHealthReads } from "./capture-health.ts";
import { pageReads } from "./pages.ts";
import { decodeRows, type ColumnKind, type Reader } from "./reader.ts";
import { spawnReads } from "./spawns.ts";

/** bigint and count(*) arrive as strings; booleans and jsonb as they are. */
const decode = (kind: ColumnKind, value: unknown) => (kind === "int" ? Number(value) : value);

export function pgReader(db: PgDb): Reader {
  return {
    all: async (query, params) => decodeRows(Array.from(await db.$client.unsafe(query.sql, params, { prepare: true })), query.kinds, decode),
  };
}

export const pgPageReads = (db: PgDb): PageReads =>
  pageReads(pgReader(db), async () => Number((await db.$client`SELECT pg_database_size(current_database()) AS bytes`)[0]!.bytes));
export const pgCaptureHealthReads = (db: PgDb): CaptureHealthReads => captureHealthReads(pgReader(db));
export const pgSpawnReads = (db: PgDb): SpawnReads => spawnReads(pgReader(db));
