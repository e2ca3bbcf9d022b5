/** The read models on a hub's PostgreSQL, written once (pages.ts, capture-health.ts, spawns.ts) over its statements (src/db/dialect/). */
import type { CaptureHealthReads, PageReads, SpawnReads } from "../../store/ports/pages.ts";
import { pgStatements } from "../dialect/pg.ts";
import type { PgDb } from "../pg/open.ts";
import { captureHealthReads } from "./capture-health.ts";
import { pageReads } from "./pages.ts";
import { spawnReads } from "./spawns.ts";

export const pgPageReads = (db: PgDb): PageReads =>
  pageReads(pgStatements(db), async () => Number((await db.$client`SELECT pg_database_size(current_database()) AS bytes`)[0]!.bytes));
export const pgCaptureHealthReads = (db: PgDb): CaptureHealthReads => captureHealthReads(pgStatements(db));
export const pgSpawnReads = (db: PgDb): SpawnReads => spawnReads(pgStatements(db));
