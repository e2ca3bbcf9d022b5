/**
 * The service without its process: store, sweeps, pipeline and HTTP app, built from a configuration and
 * stopped in order. `src/main.ts` adds what belongs to a process (env, signals, listening, exit); the tests
 * build it in-process (tests/helpers/in-process.ts). Route families are added in src/http/app.ts; the stores
 * (SQLite's or a hub's PostgreSQL) come from src/stores.ts.
 */
import { followCatalogue } from "./catalogue/follow.ts";
import { SpawnMonths } from "./spawns/month.ts";
import { startNudges } from "./nudge/run.ts";
import type { Hono } from "hono";
import { openArchiveStore } from "./archive/store.ts";
import { describeArchive } from "./config/archive.ts";
import { describeDatabase } from "./config/database.ts";
import { secretsOf, type Config } from "./config/index.ts";
import type { Db } from "./db/sqlite/open.ts";
import { watchDiskSpace } from "./disk-space.ts";
import { createApp } from "./http/app.ts";
import { IngestActivity } from "./ingest/activity.ts";
import { logInfo, logWarn } from "./log.ts";
import { ownerMessages } from "./i18n/owner/index.ts";
import type { NotifySetup } from "./notify/setup.ts";
import { startPipeline } from "./pipeline/runner.ts";
import { WorkerPool } from "./pipeline/worker-pool.ts";
import { drawingAtOnce } from "./pipeline/concurrency.ts";
import { prepareRuntimeFiles } from "./runtime-files.ts";
import { mayBeSave } from "./save/plausible.ts";
import { openStores, requestArchive } from "./stores.ts";
import { dataApi } from "./http/api/options.ts";
import { unknownResourceLog } from "./pipeline/unknown-resources.ts";

const STALE_TEMP_MS = 60 * 60 * 1000;
/**
 * The pipeline's next stage waits for uploads and reports to pause this long, and never longer than the max. 2 ms
 * took 3 ms off each save's path but let renders start between back-to-back reports: report-while-render's peak
 * RSS rose from 245–249 to 255–265 MB (docs/benchmarks-history.md, session 33).
 */
const INGEST_QUIET_MS = 5;
const INGEST_MAX_WAIT_MS = 1000;

export interface Service {
  app: Hono;
  /** SQLite's handle (the demo reads it); null on a hub's PostgreSQL. */
  db: Db | null;
  /** Stops taking work, lets running stages finish within the shutdown grace, and closes the store. */
  stop: () => Promise<void>;
}

/** Throws when DATA_DIR's SQLite file is held by another running instance, or PostgreSQL cannot be reached. */
export async function createService(config: Config, notify: NotifySetup): Promise<Service> {
  // Players not in push_map.json go where the setup says (with one channel configured, NOTIFY_DEFAULT is not needed).
  config = { ...config, notify: { ...config.notify, defaultRoute: notify.defaultRoute } };
  await prepareRuntimeFiles();
  const archive = openArchiveStore(config.archive);
  const stores = await openStores(config, archive);
  const { owner, jobs } = stores;
  const m = ownerMessages(config.ownerLocale);
  const ended = await owner.sessions.endIfTokenChanged(config.admin.token);
  if (ended > 0) logInfo("SERVER", m.sessionsEnded, { sessions: ended });
  // An older version's clear tokens: sealed before anything is served (they keep working, and are shown as before).
  const sealed = await owner.links.sealClearTokens();
  if (sealed > 0) logInfo("SERVER", m.clearTokensSealed, { count: sealed });
  // Module and script URLs carry it; made once, at the first start.
  if ((await owner.links.setupToken()) === null) logWarn("CONFIG", m.linkKeyChanged);
  if (config.publicBaseUrl !== null) await owner.links.recordServedBase(config.publicBaseUrl);
  // Before the pipeline starts: the first save is drawn with the owner's catalogue update.
  const stopFollowing = await followCatalogue(owner.catalogue, config.maps.catalogueCheckMs);
  const disk = watchDiskSpace(config.dataDir, config.storage.minFreeDiskBytes);

  for (const warning of notify.warnings) logWarn("CONFIG", warning);
  logInfo("CONFIG", notify.summary);
  if (config.archive.kind === "s3") logInfo("CONFIG", "archives go to a bucket", { archive: describeArchive(config.archive) });
  if (config.database.kind === "postgres") logInfo("CONFIG", "database is a hub's PostgreSQL", { db: describeDatabase(config.database) });
  const now = Date.now();
  const reclaimed = await jobs.reclaimAtStart(now);
  if (reclaimed > 0) logInfo("JOB", "reclaimed jobs of a process that died", { count: reclaimed });
  if (config.keys.length === 0) {
    logWarn("CONFIG", m.noKey);
  } else {
    // Keys may have changed since these saves were judged: what can be a save now runs in its turn.
    const again = await jobs.rejudgePlausibility((tail) => mayBeSave(tail, config.keys), now);
    if (again > 0) logInfo("JOB", "failed saves that can be saves under these keys queued again", { count: again });
    const resumed = await jobs.resumeWaitingForKey(now);
    if (resumed > 0) logInfo("JOB", "resumed jobs that waited for a key", { count: resumed });
  }

  const sweep = async () => {
    try {
      const uploads = (await stores.uploads.expire(Date.now(), config.uploadTtlMs)) ?? 0;
      const temps = await archive.sweep(STALE_TEMP_MS);
      if (uploads + temps > 0) logInfo("GC", "expired", { uploads, tempFolders: temps });
      const retention = await stores.retention.sweep(Date.now() - config.storage.retentionMs);
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

  const workers = new WorkerPool(drawingAtOnce(config), config.pipeline.taskTimeoutMs);
  const secrets = [...secretsOf(config), ...Object.values(notify.routing.barkKeys)];
  const ingest = new IngestActivity(INGEST_QUIET_MS, INGEST_MAX_WAIT_MS);
  const { deliveries, stageStore, notifyReads, watch } = stores;
  const nudge = { nudges: stores.nudges, links: owner.links, routing: notify.routing, config, secrets };
  const pipeline = startPipeline({ config, workers, routing: notify.routing, secrets, archive, deliveries, jobs, stageStore, notifyReads, watch, links: owner.links, nudge, logUnknownResources: unknownResourceLog() }, () => ingest.quiet());
  const nudgeTimer = startNudges(nudge);
  // Other processes' new work wakes this one's slots (SQLite has none to hear).
  const stopListening = await jobs.listen(pipeline.hear);
  const app = createApp({
    jobs,
    owner,
    pages: stores.pages,
    watch,
    captureHealth: stores.captureHealth,
    nudges: stores.nudges,
    spawns: new SpawnMonths({ reads: stores.spawnReads, archive: requestArchive(config, archive), maps: config.maps }),
    uploads: stores.uploads,
    reports: stores.reports,
    config,
    archive: requestArchive(config, archive),
    wakePipeline: pipeline.wake,
    wakePipelineFor: pipeline.wakeFor,
    keepsNextJob: pipeline.keepsNextJob,
    pipelineWriteProblem: pipeline.writeProblem,
    ingest,
    disk,
    secrets,
    pushesOff: notify.pushesOff,
    api: dataApi(stores.dataReads, stores.apiRates, config),
  });

  let stopped: Promise<void> | null = null;
  const stop = async () => {
    clearInterval(sweepTimer);
    clearInterval(nudgeTimer);
    stopFollowing();
    disk.stop();
    await stopListening();
    await pipeline.stop(config.pipeline.shutdownGraceMs);
    workers.terminate();
    const released = await jobs.releaseAtStop(Date.now());
    if (released > 0) logInfo("JOB", "released running jobs to the queue", { count: released });
    await stores.close();
  };
  return { app, db: stores.sqlite, stop: () => (stopped ??= stop()) };
}
