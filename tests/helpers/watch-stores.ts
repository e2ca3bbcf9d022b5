/** The two watch stores side by side for tests/unit/watch-store.contract.test.ts, each with a second store (another process of a hub) and a way to make saves. */
import { pgDatabaseOfFile, pgHandles, sqliteHandles, type PreparedFixtureKind } from "./store-handles.ts";
import { pgStoreSaveOnce } from "../../src/db/saves/pg.ts";
import { pgWatchStore } from "../../src/db/owner/pg.ts";
import { storeSaveOnce } from "../../src/db/saves/sqlite.ts";
import { sqliteWatchStore } from "../../src/db/owner/sqlite.ts";
import type { WatchStore } from "../../src/store/ports/watch.ts";

export interface WatchStoreFixture {
  store: WatchStore;
  another: () => Promise<WatchStore>;
  /** A save of `playerId`, for matches to belong to. */
  save: (playerId: string) => Promise<number>;
  close: () => Promise<void>;
}

export type WatchStoreKind = PreparedFixtureKind<WatchStoreFixture>;

const newSave = (playerId: string) => ({ encrypted: crypto.getRandomValues(new Uint8Array(32)), playerId, source: "upload" as const, receivedAt: Date.now() });

export const sqliteWatchStores: WatchStoreKind = {
  name: "sqlite",
  prepare: async () => {},
  open: async () => {
    const { db, another, close } = sqliteHandles("watch-store-");
    return {
      store: sqliteWatchStore(db),
      another: async () => sqliteWatchStore(await another()),
      save: async (playerId) => db.transaction((tx) => storeSaveOnce(tx, newSave(playerId))).saveId,
      close,
    };
  },
};

const pgDatabase = pgDatabaseOfFile();

export const postgresWatchStores: WatchStoreKind = {
  name: "postgres",
  prepare: pgDatabase,
  open: async () => {
    const { db, another, close } = await pgHandles(await pgDatabase(), "watch_rules, watch_matches, saves RESTART IDENTITY CASCADE");
    return {
      store: pgWatchStore(db),
      another: async () => pgWatchStore(await another()),
      save: async (playerId) => (await db.transaction((tx) => pgStoreSaveOnce(tx, newSave(playerId)))).saveId,
      close,
    };
  },
};
