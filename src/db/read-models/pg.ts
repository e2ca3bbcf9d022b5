/** The read models on a hub's PostgreSQL, written once (pages.ts, capture-health.ts, spawns.ts, notify.ts, data-api.ts) over its statements (src/db/dialect/). */
import type { ArchiveStore } from "../../archive/store.ts";
import type { DataReads } from "../../store/ports/data-api.ts";
import type { NotifyReads } from "../../store/ports/notify.ts";
import type { CaptureHealthReads, PageReads, SpawnReads } from "../../store/ports/pages.ts";
import { dataAccess } from "../owner/data-access.ts";
import { msrSubscription } from "../owner/msr-subscriptions.ts";
import { pgPutMsrSubscription } from "../owner/pg-msr-subscriptions.ts";
import { pgStatements } from "../dialect/pg.ts";
import type { PgDb } from "../pg/open.ts";
import { captureHealthReads } from "./capture-health.ts";
import { dataReads } from "./data-api.ts";
import { notifyReads } from "./notify.ts";
import { pageReads } from "./pages.ts";
import { spawnReads } from "./spawns.ts";

export const pgPageReads = (db: PgDb): PageReads =>
  pageReads(pgStatements(db), async () => Number((await db.$client`SELECT pg_database_size(current_database()) AS bytes`)[0]!.bytes));
export const pgCaptureHealthReads = (db: PgDb): CaptureHealthReads => captureHealthReads(pgStatements(db));
export const pgSpawnReads = (db: PgDb): SpawnReads => spawnReads(pgStatements(db));
export const pgNotifyReads = (db: PgDb): NotifyReads => notifyReads(pgStatements(db));

export function pgDataReads(db: PgDb, store: ArchiveStore, defaultRegion: string): DataReads {
  const access = dataAccess(pgStatements(db));
  return dataReads(pgStatements(db), store, defaultRegion, {
    grant: (token) => access.apiTokenGrant(token),
    isPublic: (playerId) => access.isPlayerPublic(playerId),
    subscription: (tokenName, region) => msrSubscription(pgStatements(db), tokenName, region),
    subscribe: (tokenName, region, list, now) => pgPutMsrSubscription(db, tokenName, region, list, now),
  });
}
