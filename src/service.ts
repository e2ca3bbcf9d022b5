/**
 * The service without its process: store, sweeps, pipeline and HTTP app, built from a configuration and
 * stopped in order. `src/main.ts` adds what belongs to a process (env, signals, listening, exit); the tests
 * build it in-process (tests/helpers/in-process.ts). Route families are added in src/http/app.ts.
 */
import { availableParallelism } from "node:os";
import type { Hono } from "hono";
import { openArchiveStore } from "./archive/store.ts";
import { describeArchive } from "./config/archive.ts";
import { describeDatabase } from "./config/database.ts";
import { secretsOf, type Config } from "./config/index.ts";
import { startCheckpointer } from "./db/checkpointer.ts";
import { GroupCommitter } from "./db/group-commit.ts";
import { sqliteReportStore, sqliteUploadStore } from "./db/ingest-store.ts";
import { openDatabase, type Db } from "./db/open.ts";
import { sqliteOwnerStore } from "./db/owner-store.ts";
import { sqliteRetentionStore } from "./db/retention.ts";
import { watchDiskSpace } from "./disk-space.ts";
import { createApp } from "./http/app.ts";
import { sqliteDataApi } from "./http/api/store.ts";
import { sqlitePageReads } from "./http/status/reads.ts";
import { IngestActivity } from "./ingest/activity.ts";
import { acquireInstanceLock } from "./instance-lock.ts";
import { logInfo, logWarn } from "./log.ts";
import { PUSHES_OFF } from "./notify/routing.ts";
import type { NotifySetup } from "./notify/setup.ts";
import { reclaimOrphans, rejudgePlausibility, releaseRunning, resumeWaitingForKey } from "./db/jobs/index.ts";
import { sqliteDeliveryStore } from "./db/deliveries/sqlite-store.ts";
import { sqliteJobStore } from "./db/jobs/sqlite-store.ts";
import { sqliteStageStore } from "./db/stage-writes.ts";
import { sqliteNotifyReads } from "./pipeline/stages/notify.ts";
import { startPipeline } from "./pipeline/runner.ts";
import { WorkerPool } from "./pipeline/worker-pool.ts";
import { prepareRuntimeFiles } from "./runtime-files.ts";
import { mayBeSave } from "./save/plausible.ts";

const STALE_TEMP_MS = 60 * 60 * 1000;
/** The pipeline's next stage waits for uploads and reports to pause this long, and never longer than the max. */
const INGEST_QUIET_MS = 5;
const INGEST_MAX_WAIT_MS = 1000;

export interface Service {
  app: Hono;
  db: Db;
  /** Stops taking work, lets running stages finish within the shutdown grace, and closes the store. */
  stop: () => Promise<void>;
}

/** Throws when DATA_DIR is held by another running instance. */
export async function createService(config: Config, notify: NotifySetup): Promise<Service> {
  // Until every store is wired to PostgreSQL, a hub's setting must not run quietly on a local SQLite file.
  if (config.database.kind === "postgres") throw new Error(`DATABASE_URL (${describeDatabase(config.database)}): PostgreSQL is not wired into the service yet`);
  const releaseLock = acquireInstanceLock(config.dataDir);
  await prepareRuntimeFiles();
  const db = openDatabase(config.databasePath, config.storage.walLimitBytes);
  const stopCheckpointer = startCheckpointer(db, config.databasePath, config.storage.walLimitBytes);
  const owner = sqliteOwnerStore(db);
  // Module and script URLs carry it; made once, at the first start.
  await owner.links.setupToken();
  if (config.publicBaseUrl !== null) await owner.links.recordServedBase(config.publicBaseUrl);
  const archive = openArchiveStore(config.archive);
  const disk = watchDiskSpace(config.dataDir, config.storage.minFreeDiskBytes);

  for (const warning of notify.warnings) logWarn("CONFIG", warning);
  if (notify.pushesOff) logInfo("CONFIG", PUSHES_OFF);
  if (config.archive.kind === "s3") logInfo("CONFIG", "archives go to a bucket", { archive: describeArchive(config.archive) });
  const now = Date.now();
  const reclaimed = reclaimOrphans(db, now);
  if (reclaimed > 0) logInfo("JOB", "reclaimed jobs of a process that died", { count: reclaimed });
  if (config.keys.length === 0) {
    logWarn("CONFIG", "no AES key configured (AES_KEY/AES_IV): saves are accepted and wait for keys");
  } else {
    // Keys may have changed since these saves were judged: what can be a save now runs in its turn.
    const again = rejudgePlausibility(db, (tail) => mayBeSave(tail, config.keys), now);
    if (again > 0) logInfo("JOB", "failed saves that can be saves under these keys queued again", { count: again });
    const resumed = resumeWaitingForKey(db, now);
    if (resumed > 0) logInfo("JOB", "resumed jobs that waited for a key", { count: resumed });
  }

  const retentionStore = sqliteRetentionStore(db, archive);
  const committer = new GroupCommitter(db);
  const uploadStore = sqliteUploadStore(db, committer);
  const sweep = async () => {
    try {
      const uploads = (await uploadStore.expire(Date.now(), config.uploadTtlMs)) ?? 0;
      const temps = await archive.sweep(STALE_TEMP_MS);
      if (uploads + temps > 0) logInfo("GC", "expired", { uploads, tempFolders: temps });
      const retention = await retentionStore.sweep(Date.now() - config.storage.retentionMs);
      if (retention === null) return; // another process is sweeping
      const { vacuumedPages, ...removed } = retention.counts;
      if (Object.values(removed).some((count) => count > 0)) {
        logInfo("GC", "retention applied", { ...removed, vacuumedPages, more: retention.more });
      }
    } catch (error) {
      logWarn("GC", "sweep failed; next sweep tries again", { error: String(error).slice(0, 200) });
    }
  };
  await sweep();
  const sweepTimer = setInterval(() => void sweep(), Math.min(60_000, Math.max(250, config.uploadTtlMs / 4)));

  // Leave one core to the HTTP thread: the capture tool must be answered at once even while maps render.
  const workers = new WorkerPool(Math.max(1, Math.min(config.pipeline.concurrency, availableParallelism() - 1)), config.pipeline.taskTimeoutMs);
  const secrets = [...secretsOf(config), ...Object.values(notify.routing.barkKeys)];
  const ingest = new IngestActivity(INGEST_QUIET_MS, INGEST_MAX_WAIT_MS);
  const stores = { deliveries: sqliteDeliveryStore(db), jobs: sqliteJobStore(db), stageStore: sqliteStageStore(db), notifyReads: sqliteNotifyReads(db) };
  const pipeline = startPipeline({ db, config, workers, routing: notify.routing, secrets, archive, ...stores }, () => ingest.quiet());
  const app = createApp({ jobs: stores.jobs, owner, pages: sqlitePageReads(db), uploads: uploadStore, reports: sqliteReportStore(committer), config, archive, wakePipeline: pipeline.wake, ingest, disk, secrets, pushesOff: notify.pushesOff, api: sqliteDataApi(db, archive, config) });

  let stopped: Promise<void> | null = null;
  const stop = async () => {
    clearInterval(sweepTimer);
    disk.stop();
    await pipeline.stop(config.pipeline.shutdownGraceMs);
    workers.terminate();
    const released = releaseRunning(db, Date.now());
    if (released > 0) logInfo("JOB", "released running jobs to the queue", { count: released });
    stopCheckpointer();
    db.$client.close();
    releaseLock();
  };
  return { app, db, stop: () => (stopped ??= stop()) };
}
