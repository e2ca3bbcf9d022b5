/**
 * What the data API reads (and the one thing it writes: lunabot's subscription lists), declared where it is used:
 * a small async interface (a hub's store implements it too), and its SQLite implementation over src/db.
 */
import { eq } from "drizzle-orm";
import type { DataType } from "../../capture/data-types.ts";
import { SAVE_JSON_FILE } from "../../archive/save-json-file.ts";
import type { ArchiveStore } from "../../archive/store.ts";
import { apiTokenGrant, isPlayerPublic, type ApiToken } from "../owner/sqlite-data-access.ts";
import { msrSubscription, putMsrSubscription, type MsrSubscription, type SubscriptionList } from "../owner/sqlite-msr-subscriptions.ts";
import type { Db } from "../open.ts";
import { latestSave, recentUploads, uploadTimes, type LatestSave, type PlayerUpload } from "./sqlite-player-saves.ts";
import { archives, saves } from "../schema.ts";
import type { Config } from "../../config/index.ts";
import { encryptedBytesOf } from "../../pipeline/encrypted-save.ts";
import { memoryRateWindows, type RateWindows } from "../../http/api/rate-limit.ts";
import type { ApiOptions } from "../../http/api/routes.ts";
import { SaveJsonSource, type SaveJsonReads } from "../../http/api/save-json.ts";

export interface DataReads extends SaveJsonReads {
  /** The player's latest archived full save (or birthday party delivery) in `region` (saves without a game host count for the default region). */
  latest(region: string, playerId: string, dataType?: DataType): Promise<LatestSave | null>;
  /** Players with an archived save in `region` and their latest upload time, the newest first, at most `limit`. */
  recentUploads(region: string, limit: number): Promise<PlayerUpload[]>;
  /** The latest upload time of each of these players that has an archived save in `region` (others left out), in one read. */
  uploadTimes(region: string, playerIds: string[]): Promise<PlayerUpload[]>;
  /** The save's encrypted bytes (database copy, or the archive's save.bin once retention cleared it). */
  encrypted(saveId: number): Promise<Uint8Array | null>;
  grant(token: string): Promise<ApiToken | null>;
  isPublic(playerId: string): Promise<boolean>;
  /** The token's last `/msr` list for `region` (PUT update_msr_sub), in the store: any process answers the GET. */
  subscription(tokenName: string, region: string): Promise<MsrSubscription | null>;
  subscribe(tokenName: string, region: string, list: SubscriptionList, now: number): Promise<void>;
}

export function sqliteDataReads(db: Db, store: ArchiveStore, defaultRegion: string): DataReads {
  return {
    latest: async (region, playerId, dataType) => latestSave(db, region, playerId, defaultRegion, dataType),
    recentUploads: async (region, limit) => recentUploads(db, region, defaultRegion, limit),
    uploadTimes: async (region, playerIds) => uploadTimes(db, region, defaultRegion, playerIds),
    encrypted: async (saveId) => {
      const row = db.select().from(saves).where(eq(saves.id, saveId)).get();
      if (!row) return null;
      const archive = db.select({ relPath: archives.relPath }).from(archives).where(eq(archives.saveId, saveId)).get();
      const found = await encryptedBytesOf(store, row, archive?.relPath ?? null);
      return "bytes" in found ? found.bytes : null;
    },
    storedJson: async (saveId) => {
      const archive = db.select({ relPath: archives.relPath, files: archives.files }).from(archives).where(eq(archives.saveId, saveId)).get();
      if (!archive?.files.includes(SAVE_JSON_FILE)) return null;
      return store.readSmall(archive.relPath, SAVE_JSON_FILE);
    },
    grant: async (token) => apiTokenGrant(db, token),
    isPublic: async (playerId) => isPlayerPublic(db, playerId),
    subscription: async (tokenName, region) => msrSubscription(db, tokenName, region),
    subscribe: async (tokenName, region, list, now) => putMsrSubscription(db, tokenName, region, list, now),
  };
}

/** The data API of one service on SQLite. */
export function sqliteDataApi(db: Db, archive: ArchiveStore, config: Pick<Config, "api" | "keys" | "trustProxy">): ApiOptions {
  return dataApi(sqliteDataReads(db, archive, config.api.defaultRegion), memoryRateWindows(), config);
}

/** The data API over a store's reads. */
export function dataApi(reads: DataReads, rateWindows: RateWindows, config: Pick<Config, "api" | "keys" | "trustProxy">): ApiOptions {
  return {
    reads,
    saveJson: new SaveJsonSource(reads, config.keys),
    perMinute: config.api.perMinute,
    rateWindows,
    trustProxy: config.trustProxy,
  };
}
