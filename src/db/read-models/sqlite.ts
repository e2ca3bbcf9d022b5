/** The read models over SQLite, written once (pages.ts, capture-health.ts, spawns.ts, notify.ts, data-api.ts) over its statements (src/db/dialect/). */
import type { ArchiveStore } from "../../archive/store.ts";
import type { DataReads } from "../../store/ports/data-api.ts";
import type { NotifyReads } from "../../store/ports/notify.ts";
import type { CaptureHealthReads, PageReads, SpawnReads } from "../../store/ports/pages.ts";
import { dataAccess } from "../owner/data-access.ts";
import { msrSubscription, putSubscription } from "../owner/msr-subscriptions.ts";
import { sqliteStatements } from "../dialect/sqlite.ts";
import type { Db } from "../sqlite/open.ts";
import { captureHealthReads } from "./capture-health.ts";
import { dataReads } from "./data-api.ts";
import { notifyReads } from "./notify.ts";
import { pageReads } from "./pages.ts";
import { spawnReads } from "./spawns.ts";

/** Bytes the SQLite file holds (pages in use and free pages). */
export function databaseBytes(db: Db): number {
  const pages = db.$client.query("PRAGMA page_count").get() as { page_count: number };
  const size = db.$client.query("PRAGMA page_size").get() as { page_size: number };
  return pages.page_count * size.page_size;
}

export const sqlitePageReads = (db: Db): PageReads => pageReads(sqliteStatements(db), async () => databaseBytes(db));
export const sqliteCaptureHealthReads = (db: Db): CaptureHealthReads => captureHealthReads(sqliteStatements(db));
export const sqliteSpawnReads = (db: Db): SpawnReads => spawnReads(sqliteStatements(db));
export const sqliteNotifyReads = (db: Db): NotifyReads => notifyReads(sqliteStatements(db));

export function sqliteDataReads(db: Db, store: ArchiveStore, defaultRegion: string): DataReads {
  const statements = sqliteStatements(db);
  const access = dataAccess(statements);
  return dataReads(statements, store, defaultRegion, {
    grant: (token) => access.apiTokenGrant(token),
    isPublic: (playerId) => access.isPlayerPublic(playerId),
    subscription: (tokenName, region) => msrSubscription(statements, tokenName, region),
    subscribe: (tokenName, region, list, now) => statements.transaction(() => putSubscription(tokenName, region, list, now)),
  });
}
