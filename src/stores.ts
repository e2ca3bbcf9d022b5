/**
 * The one place that picks the service's stores: SQLite's (the default: the instance lock, the checkpointer, group
 * commit on the request path) or a hub's PostgreSQL (DATABASE_URL: no instance lock, since N processes share it,
 * and no checkpointer). Everything the service runs takes its stores from here.
 */
import type { ArchiveStore } from "./archive/store.ts";
import type { Config } from "./config/index.ts";
import { startCheckpointer } from "./db/sqlite/checkpointer.ts";
import { pgDeliveryStore } from "./db/deliveries/pg.ts";
import { sqliteDeliveryStore } from "./db/deliveries/sqlite.ts";
import { GroupCommitter } from "./db/sqlite/group-commit.ts";
import { sqliteReportStore, sqliteUploadStore } from "./db/uploads/sqlite-store.ts";
import { pgJobStore } from "./db/jobs/pg.ts";
import { sqliteJobStore } from "./db/jobs/sqlite.ts";
import { openDatabase, type Db } from "./db/sqlite/open.ts";
import { sqliteOwnerStore } from "./db/owner/sqlite.ts";
import { pgReportStore, pgUploadStore } from "./db/uploads/pg-store.ts";
import { openPostgres } from "./db/pg/open.ts";
import { pgOwnerStore } from "./db/owner/pg.ts";
import { pgRateWindows } from "./db/owner/pg-rate-windows.ts";
import { pgRetentionStore } from "./db/retention/pg.ts";
import { pgStageStore } from "./db/stage-writes/pg.ts";
import { sqliteRetentionStore } from "./db/retention/sqlite.ts";
import { sqliteStageStore } from "./db/stage-writes/sqlite.ts";
import { memoryRateWindows } from "./db/owner/memory-rate-windows.ts";
import type { RateWindows } from "./store/ports/rate-windows.ts";
import type { OwnerStore } from "./store/ports/owner.ts";
import type { ReportStore, UploadStore } from "./store/ports/ingest.ts";
import { type PageReads } from "./store/ports/pages.ts";
import { acquireInstanceLock } from "./instance-lock.ts";
import type { DeliveryStore } from "./store/ports/deliveries.ts";
import type { JobStore } from "./store/ports/jobs.ts";
import type { StageStore } from "./store/ports/stage-writes.ts";
import type { NotifyReads } from "./store/ports/notify.ts";
import type { RetentionStore } from "./store/ports/retention.ts";
import { pgWatchStore } from "./db/owner/pg.ts";
import { sqliteWatchStore } from "./db/owner/sqlite.ts";
import type { WatchStore } from "./store/ports/watch.ts";
import { pgNudgeStore } from "./db/owner/pg.ts";
import { sqliteNudgeStore } from "./db/owner/sqlite.ts";
import type { NudgeStore } from "./store/ports/nudges.ts";
import { withDeadline } from "./store-unavailable.ts";
import type { CaptureHealthReads, SpawnReads } from "./store/ports/pages.ts";
import { sqlitePageReads, sqliteCaptureHealthReads, sqliteSpawnReads, sqliteNotifyReads } from "./db/read-models/sqlite.ts";
import { pgPageReads, pgCaptureHealthReads, pgSpawnReads, pgNotifyReads } from "./db/read-models/pg.ts";
import type { DataReads } from "./store/ports/data-api.ts";
import { sqliteDataReads } from "./db/read-models/sqlite.ts";
import { pgDataReads } from "./db/read-models/pg.ts";
import { hubConnections } from "./pipeline/concurrency.ts";
import { loadTokenSeal } from "./link-key.ts";

export interface Stores {
  jobs: JobStore;
  deliveries: DeliveryStore;
  stageStore: StageStore;
  notifyReads: NotifyReads;
  owner: OwnerStore;
  pages: PageReads;
  uploads: UploadStore;
  reports: ReportStore;
  retention: RetentionStore;
  dataReads: DataReads;
  watch: WatchStore;
  nudges: NudgeStore;
  captureHealth: CaptureHealthReads;
  spawnReads: SpawnReads;
  /** The data API's per-minute counts: in the database on a hub, in memory beside SQLite's one process. */
  apiRates: RateWindows;
  /** SQLite's handle (the demo reads it); null on PostgreSQL. */
  sqlite: Db | null;
  /** Closes the connections (and SQLite's checkpointer and instance lock). */
  close: () => Promise<void>;
}

/**
 * Throws when DATA_DIR's SQLite file is held by another running instance. `beside`: the owner CLI, which runs next
 * to a running service, so it takes neither SQLite's instance lock nor its checkpointer.
 */
export async function openStores(config: Config, archive: ArchiveStore, beside = false): Promise<Stores> {
  const defaultRegion = config.api.defaultRegion;
  const seal = loadTokenSeal(config.admin.linkKey, config.dataDir);
  if (config.database.kind === "postgres") {
    // Each process holds a few connections: its slots' claims and records, the request path, and LISTEN's own.
    const db = await openPostgres(config.database.url, { maxConnections: beside ? 2 : hubConnections(config), connectTimeoutMs: config.storage.storeTimeoutMs });
    // What a request waits for answers within STORE_TIMEOUT_MS, or 503 (the pipeline's stores wait and retry).
    const request = <T extends object>(store: T) => withDeadline(store, config.storage.storeTimeoutMs, "database");
    return {
      jobs: pgJobStore(db),
      deliveries: pgDeliveryStore(db),
      stageStore: pgStageStore(db),
      notifyReads: pgNotifyReads(db),
      owner: request(pgOwnerStore(db, seal)),
      pages: request(pgPageReads(db)),
      uploads: request(pgUploadStore(db)),
      reports: request(pgReportStore(db)),
      retention: pgRetentionStore(db, archive),
      dataReads: request(pgDataReads(db, requestArchive(config, archive), defaultRegion)),
      // Read by the pages (and the watch rules by the notify stage, the nudges by their loop): a store away is a 503 or a wait.
      watch: request(pgWatchStore(db)),
      nudges: request(pgNudgeStore(db)),
      captureHealth: request(pgCaptureHealthReads(db)),
      spawnReads: request(pgSpawnReads(db)),
      apiRates: request(pgRateWindows(db)),
      sqlite: null,
      close: async () => db.$client.end({ timeout: 5 }),
    };
  }
  const releaseLock = beside ? () => {} : acquireInstanceLock(config.dataDir);
  const db = openDatabase(config.databasePath, config.storage.walLimitBytes);
  const stopCheckpointer = beside ? () => {} : startCheckpointer(db, config.databasePath, config.storage.walLimitBytes);
  const committer = new GroupCommitter(db);
  return {
    jobs: sqliteJobStore(db),
    deliveries: sqliteDeliveryStore(db),
    stageStore: sqliteStageStore(db),
    notifyReads: sqliteNotifyReads(db),
    owner: sqliteOwnerStore(db, seal),
    pages: sqlitePageReads(db),
    uploads: sqliteUploadStore(db, committer),
    reports: sqliteReportStore(committer),
    retention: sqliteRetentionStore(db, archive),
    dataReads: sqliteDataReads(db, requestArchive(config, archive), defaultRegion),
    watch: sqliteWatchStore(db),
    nudges: sqliteNudgeStore(db),
    captureHealth: sqliteCaptureHealthReads(db),
    spawnReads: sqliteSpawnReads(db),
    apiRates: memoryRateWindows(),
    sqlite: db,
    close: async () => {
      stopCheckpointer();
      db.$client.close();
      releaseLock();
    },
  };
}

/** The archive as a request reads it: a bucket's calls answer within STORE_TIMEOUT_MS, or 503 naming the bucket. */
export function requestArchive(config: Config, archive: ArchiveStore): ArchiveStore {
  return config.archive.kind === "s3" ? withDeadline(archive, config.storage.storeTimeoutMs, "bucket") : archive;
}
