/** The HTTP app built in-process on a temp SQLite file, called with a chosen peer address (for the owner's access rules). */
import { SpawnMonths } from "../../src/spawns/month.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { diskArchiveStore } from "../../src/archive/disk-store.ts";
import { loadConfig, secretsOf } from "../../src/config/index.ts";
import { GroupCommitter } from "../../src/db/sqlite/group-commit.ts";
import { sqliteReportStore, sqliteUploadStore } from "../../src/db/uploads/sqlite-store.ts";
import { sqliteJobStore } from "../../src/db/jobs/sqlite.ts";
import { openDatabase, type Db } from "../../src/db/sqlite/open.ts";
import { sqliteNudgeStore, sqliteOwnerStore, sqliteWatchStore } from "../../src/db/owner/sqlite.ts";
import { loadTokenSeal } from "../../src/link-key.ts";
import { storeSaveOnce } from "../../src/db/saves/sqlite.ts";
import { createApp } from "../../src/http/app.ts";
import type { HttpDeps } from "../../src/http/deps.ts";
import { sqliteCaptureHealthReads, sqliteDataReads, sqliteSpawnReads, sqlitePageReads } from "../../src/db/read-models/sqlite.ts";
import { dataApi } from "../../src/http/api/options.ts";
import { memoryRateWindows } from "../../src/db/owner/memory-rate-windows.ts";

export const OWNER_PLAYER = "7485938820123456789";

export interface OwnerApp {
  db: Db;
  /** The data folder: another ownerApp given it as DATA_DIR shares the store, like a second process of a hub. */
  dataDir: string;
  /** Sends a request as if from `peer` (default: a public address). */
  request: (path: string, init?: RequestInit, peer?: string) => Promise<Response>;
  cleanup: () => void;
}

export function ownerApp(
  env: Record<string, string> = {},
  disk = { full: false, freeBytes: 10 * 2 ** 30 },
  ingest: HttpDeps["ingest"] = { begin: () => {}, end: () => {} },
): OwnerApp {
  const dir = mkdtempSync(join(tmpdir(), "mysekai-owner-"));
  const config = loadConfig({ DATA_DIR: dir, CONFIG_DIR: join(dir, "config"), ...env });
  const db = openDatabase(config.databasePath);
  // Player data that no refused request may show.
  db.transaction((tx) => storeSaveOnce(tx, { encrypted: new Uint8Array(32), playerId: OWNER_PLAYER, source: "upload", receivedAt: Date.now() }));
  const committer = new GroupCommitter(db);
  const app = createApp({
    jobs: sqliteJobStore(db),
    owner: sqliteOwnerStore(db, loadTokenSeal(config.admin.linkKey, dir)),
    pages: sqlitePageReads(db),
    watch: sqliteWatchStore(db),
    captureHealth: sqliteCaptureHealthReads(db),
    nudges: sqliteNudgeStore(db),
    spawns: new SpawnMonths({ reads: sqliteSpawnReads(db), archive: diskArchiveStore(join(dir, "archive")), maps: config.maps }),
    uploads: sqliteUploadStore(db, committer),
    reports: sqliteReportStore(committer),
    config,
    archive: diskArchiveStore(join(dir, "archive")),
    wakePipeline: () => {},
    wakePipelineFor: () => {},
    ingest,
    disk: { isFull: () => disk.full, reading: () => ({ freeBytes: disk.freeBytes, totalBytes: 4 * disk.freeBytes }), floorBytes: config.storage.minFreeDiskBytes },
    secrets: secretsOf(config),
    pushesOff: false,
    api: dataApi(sqliteDataReads(db, diskArchiveStore(join(dir, "archive")), config.api.defaultRegion), memoryRateWindows(), config),
  });
  return {
    db,
    dataDir: config.dataDir,
    request: async (path, init = {}, peer = "203.0.113.7") =>
      app.fetch(new Request(`http://localhost:9478${path}`, { ...init, headers: { host: "localhost:9478", ...(init.headers as Record<string, string>) } }), {
        requestIP: () => ({ address: peer, family: "IPv4", port: 40000 }),
      }),
    cleanup: () => {
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
