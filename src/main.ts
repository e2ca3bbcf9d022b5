/** Wires configuration, database, HTTP server, pipeline loop and shutdown. `bun run start`. */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { removeStaleTemp } from "./archive/write.ts";
import { ConfigError, loadConfig, secretsOf, type Config } from "./config/index.ts";
import { UPLOAD_PATHS } from "./contract.ts";
import { startCheckpointer } from "./db/checkpointer.ts";
import { GroupCommitter } from "./db/group-commit.ts";
import { openDatabase } from "./db/open.ts";
import { applyRetention } from "./db/retention.ts";
import { setupToken } from "./db/setup-tokens.ts";
import { expireUploads } from "./db/uploads.ts";
import { IngestActivity } from "./ingest/activity.ts";
import { startHttpServer } from "./http/server.ts";
import { flushLog, logInfo, logWarn } from "./log.ts";
import { acquireInstanceLock } from "./instance-lock.ts";
import { missingLaunchEnv } from "./launch-env.ts";
import { watchDiskSpace } from "./disk-space.ts";
import { loadNotifySetup, type NotifySetup } from "./notify/setup.ts";
import { reclaimOrphans, releaseRunning, resumeWaitingForKey } from "./pipeline/queue.ts";
import { startPipeline } from "./pipeline/runner.ts";
import { reportPathForLog } from "./report-path.ts";
import { prepareRuntimeFiles } from "./runtime-files.ts";
import { WorkerPool } from "./pipeline/worker-pool.ts";

const STALE_TEMP_MS = 60 * 60 * 1000;
/** The pipeline's next stage waits for uploads and reports to pause this long, and never longer than the max. */
const INGEST_QUIET_MS = 5;
const INGEST_MAX_WAIT_MS = 1000;

function fail(message: string): never {
  flushLog();
  console.error(`[SERVER] cannot start: ${message}`);
  process.exit(1);
}

function readConfig(): { config: Config; notify: NotifySetup } {
  try {
    const config = loadConfig();
    return { config, notify: loadNotifySetup(config.notify, config.configDir) };
  } catch (error) {
    if (error instanceof ConfigError || error instanceof Error) fail(error.message);
    throw error;
  }
}

const { config, notify } = readConfig();
let releaseLock: () => void;
try {
  releaseLock = acquireInstanceLock(config.dataDir);
} catch (error) {
  fail((error as Error).message);
}
await prepareRuntimeFiles();
const db = openDatabase(config.databasePath);
const stopCheckpointer = startCheckpointer(db, config.databasePath);
// Module and script URLs carry it; made once, at the first start.
setupToken(db);
const archiveRoot = join(config.dataDir, "archive");
const disk = watchDiskSpace(config.dataDir, config.storage.minFreeDiskBytes);

for (const warning of notify.warnings) logWarn("CONFIG", warning);
const now = Date.now();
const { reclaimed, parked } = reclaimOrphans(db, now);
if (reclaimed > 0) logInfo("JOB", "reclaimed jobs of a process that died", { count: reclaimed });
if (parked.length > 0) logWarn("JOB", "parked jobs that were running each time the process died", { jobs: parked.join(",") });
if (config.keys.length === 0) {
  logWarn("CONFIG", "no AES key configured (AES_KEY/AES_IV): saves are accepted and wait for keys");
} else {
  const resumed = resumeWaitingForKey(db, now);
  if (resumed > 0) logInfo("JOB", "resumed jobs that waited for a key", { count: resumed });
}

const sweep = async () => {
  try {
    const uploads = expireUploads(db, Date.now(), config.uploadTtlMs);
    const temps = await removeStaleTemp(archiveRoot, STALE_TEMP_MS);
    if (uploads + temps > 0) logInfo("GC", "expired", { uploads, tempFolders: temps });
    const retention = await applyRetention(db, archiveRoot, Date.now() - config.storage.retentionMs);
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
const pipeline = startPipeline({ db, config, workers, routing: notify.routing, secrets, archiveRoot }, () => ingest.quiet());
const server = startHttpServer({ db, committer: new GroupCommitter(db), config, archiveRoot, wakePipeline: pipeline.wake, ingest, disk, secrets });

const base = `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${server.port}`;
logInfo("SERVER", "listening", { url: base, db: config.databasePath, keys: config.keys.length });
const missingEnv = missingLaunchEnv();
if (missingEnv.length > 0) logWarn("SERVER", "started without its launch settings: memory is given back later (see src/launch-env.ts)", { missing: missingEnv.join(",") });
flushLog(); // the endpoints below follow it
console.log(`  upload: POST ${UPLOAD_PATHS.map((path) => `${base}${path}`).join(" (or ")})`);
console.log(`  capture setup (owner): ${config.publicBaseUrl ?? base}/setup`);
console.log(config.report.enabled ? `  report: POST ${base}${reportPathForLog(config.report.path)}` : "  report: disabled (REPORT_ENABLED=0)");

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logInfo("SERVER", "shutting down", { signal, graceMs: config.pipeline.shutdownGraceMs });
  clearInterval(sweepTimer);
  disk.stop();
  await server.stop();
  await pipeline.stop(config.pipeline.shutdownGraceMs);
  workers.terminate();
  const released = releaseRunning(db, Date.now());
  if (released > 0) logInfo("JOB", "released running jobs to the queue", { count: released });
  stopCheckpointer();
  db.$client.close();
  releaseLock();
  logInfo("SERVER", "stopped");
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
