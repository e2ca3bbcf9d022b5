/** The two watch stores side by side for tests/unit/watch-store.contract.test.ts, each with a second store (another process of a hub) and a way to make saves. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../src/db/open.ts";
import { openPostgres, type PgDb } from "../../src/db/pg/open.ts";
import { pgStoreSaveOnce } from "../../src/db/saves/pg.ts";
import { pgWatchStore } from "../../src/db/owner/pg.ts";
import { storeSaveOnce } from "../../src/db/saves/sqlite.ts";
import { sqliteWatchStore } from "../../src/db/owner/sqlite.ts";
import type { WatchStore } from "../../src/store/ports/watch.ts";
import { databaseForThisFile } from "./postgres.ts";

export interface WatchStoreFixture {
  store: WatchStore;
  another: () => Promise<WatchStore>;
  /** A save of `playerId`, for matches to belong to. */
  save: (playerId: string) => Promise<number>;
  close: () => Promise<void>;
}

export interface WatchStoreKind {
  name: "sqlite" | "postgres";
  prepare: () => Promise<unknown>;
  open: () => Promise<WatchStoreFixture>;
}

const newSave = (playerId: string) => ({ encrypted: crypto.getRandomValues(new Uint8Array(32)), playerId, source: "upload" as const, receivedAt: Date.now() });

export const sqliteWatchStores: WatchStoreKind = {
  name: "sqlite",
  prepare: async () => {},
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), "watch-store-"));
    const path = join(dir, "ingest.sqlite");
    const db = openDatabase(path);
    const others: ReturnType<typeof openDatabase>[] = [];
    return {
      store: sqliteWatchStore(db),
      another: async () => {
        const other = openDatabase(path);
        others.push(other);
        return sqliteWatchStore(other);
      },
      save: async (playerId) => db.transaction((tx) => storeSaveOnce(tx, newSave(playerId))).saveId,
      close: async () => {
        for (const handle of [db, ...others]) handle.$client.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

let pgUrl: Promise<string> | undefined;
const pgDatabase = () => (pgUrl ??= databaseForThisFile("migrated"));

export const postgresWatchStores: WatchStoreKind = {
  name: "postgres",
  prepare: pgDatabase,
  open: async () => {
    const url = await pgDatabase();
    const db = await openPostgres(url, { maxConnections: 4 });
    await db.$client.unsafe("TRUNCATE watch_rules, watch_matches, saves RESTART IDENTITY CASCADE");
    const others: PgDb[] = [];
    return {
      store: pgWatchStore(db),
      another: async () => {
        const other = await openPostgres(url, { maxConnections: 4 });
        others.push(other);
        return pgWatchStore(other);
      },
      save: async (playerId) => (await db.transaction((tx) => pgStoreSaveOnce(tx, newSave(playerId)))).saveId,
      close: async () => {
        await Promise.all([db, ...others].map((handle) => handle.$client.end()));
      },
    };
  },
};
