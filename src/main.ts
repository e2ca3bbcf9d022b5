/** Wires configuration, database, HTTP server, pipeline loop and shutdown. `bun run start`. */
import { ConfigError, loadConfig, UPLOAD_PATHS, type Config } from "./config.ts";
import { openDatabase } from "./db/open.ts";
import { expireUploads } from "./db/uploads.ts";
import { startHttpServer } from "./http/server.ts";
import { logInfo, logWarn } from "./log.ts";

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`[CONFIG] cannot start: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

const config = readConfig();
const db = openDatabase(config.databasePath);

const sweepUploads = () => {
  const removed = expireUploads(db, Date.now(), config.uploadTtlMs);
  if (removed > 0) logInfo("GC", "expired uploads removed", { count: removed });
};
sweepUploads();
const sweepTimer = setInterval(sweepUploads, Math.min(60_000, Math.max(250, config.uploadTtlMs / 4)));

const server = startHttpServer({ db, config, wakePipeline: () => {} });

const base = `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${server.port}`;
logInfo("SERVER", "listening", { url: base, db: config.databasePath });
console.log(`  upload: POST ${base}${UPLOAD_PATHS[0]}`);
if (config.report.enabled) console.log(`  report: POST ${base}${config.report.path}`);
else console.log("  report: disabled (REPORT_ENABLED=0)");

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logInfo("SERVER", "shutting down", { signal });
  clearInterval(sweepTimer);
  await server.stop();
  db.$client.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
