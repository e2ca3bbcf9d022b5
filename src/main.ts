/** The service as a process (`bun run start`): configuration from the environment, listening, signals, exit. */
import { describeArchive } from "./config/archive.ts";
import { describeDatabase } from "./config/database.ts";
import { loadConfig, type Config } from "./config/index.ts";
import { reasonIn } from "./config/parse.ts";
import { UPLOAD_PATHS } from "./contract.ts";
import { startHttpServer } from "./http/server.ts";
import { missingLaunchEnv } from "./launch-env.ts";
import { flushLog, logInfo, logWarn } from "./log.ts";
import { loadNotifySetup, type NotifySetup } from "./notify/setup.ts";
import { ownerLocaleOf } from "./config/owner-locale.ts";
import { isLoopbackName, unreachableBase } from "./config/public-base.ts";
import { cliMessages, ownerMessages } from "./i18n/owner/index.ts";
import { binaryUsage } from "./cli-help.ts";
import { reportPathForLog } from "./report-path.ts";
import { TASK_PROCESS_ENV } from "./pipeline/task-process.ts";
import { createService, type Service } from "./service.ts";
import { surviveStoreRejections } from "./store-unavailable.ts";
import { version } from "../package.json";

/** Why the start stops, in the owner's language (a ConfigError's reason too; the setting's name as written). */
function fail(error: unknown): never {
  const locale = ownerLocaleOf();
  const why = reasonIn(locale)(error);
  flushLog();
  console.error(`[SERVER] ${ownerMessages(locale).cannotStart(why)}`);
  process.exit(1);
}

function readConfig(): { config: Config; notify: NotifySetup } {
  try {
    const config = loadConfig();
    return { config, notify: loadNotifySetup(config.notify, config.configDir, config.ownerLocale) };
  } catch (error) {
    if (error instanceof Error) fail(error);
    throw error;
  }
}

async function serve(): Promise<void> {
  const { config, notify } = readConfig();
  surviveStoreRejections((message, fields) => logWarn("SERVER", message, fields));
  let service: Service;
  try {
    service = await createService(config, notify);
  } catch (error) {
    fail(error);
  }
  const server = startHttpServer(service.app, config);
  // Before the line that says it listens: a supervisor may signal as soon as it reads it.
  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    logInfo("SERVER", ownerMessages(config.ownerLocale).shuttingDown, { signal, graceMs: config.pipeline.shutdownGraceMs });
    await server.stop();
    await service.stop();
    logInfo("SERVER", ownerMessages(config.ownerLocale).stopped);
    process.exit(0);
  }
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  const m = ownerMessages(config.ownerLocale);
  const anyAddress = config.host === "0.0.0.0" || config.host === "::";
  const hostName = config.host.includes(":") ? `[${config.host}]` : config.host;
  const base = `http://${anyAddress ? "localhost" : hostName}:${server.port}`;
  logInfo("SERVER", m.listening, { url: base, db: describeDatabase(config.database), archive: describeArchive(config.archive), keys: config.keys.length });
  const missingEnv = missingLaunchEnv();
  if (missingEnv.length > 0) logWarn("SERVER", m.launchEnv, { missing: missingEnv.join(",") });
  const unreachable = config.publicBaseUrl === null ? null : unreachableBase(config.publicBaseUrl);
  if (unreachable !== null) logWarn("CONFIG", m.publicBaseUnreachable("PUBLIC_BASE_URL", config.publicBaseUrl!, unreachable), { reach: unreachable });
  flushLog(); // the endpoints below follow it
  console.log(`  ${m.endpointUpload}: POST ${UPLOAD_PATHS.map((path) => `${base}${path}`).join(` (${m.or} `)})`);
  // Without ADMIN_TOKEN /setup answers loopback clients only: PUBLIC_BASE_URL's address would open a 403, even here,
  // and so would HOST's when it is not this machine's loopback.
  const reachesLoopback = anyAddress || isLoopbackName(hostName);
  const setupAt = config.admin.token !== null ? `${config.publicBaseUrl ?? base}/setup` : reachesLoopback ? `${base}/setup` : m.setupNeedsAdminToken;
  console.log(`  ${m.endpointSetup}: ${setupAt}`);
  console.log(config.report.enabled ? `  ${m.endpointReport}: POST ${base}${reportPathForLog(config.report.path)}` : `  ${m.reportDisabled}`);
}

/** In the owner's language, as the CLI's help (src/cli-help.ts). */
const owner = cliMessages(ownerLocaleOf());
const HELP = binaryUsage(owner, version);

// A job's task in a process of its own (src/pipeline/task-process.ts), an owner command, the demo, or the service.
const [command, ...rest] = process.argv.slice(2);
if (process.env[TASK_PROCESS_ENV] === "1") (await import("./pipeline/task-process-child.ts")).serveOneTask();
else if (command === undefined || command === "serve") await serve();
else if (command === "--help" || command === "-h" || command === "help") console.log(HELP);
else if (command === "--version" || command === "-v") console.log(version);
else if (command === "cli") process.exitCode = await (await import("./cli.ts")).runCli(rest);
else if (command === "init") process.exitCode = await (await import("./init.ts")).runInit("mysekai-ingest");
else if (command === "demo") process.exitCode = await (await import("./demo.ts")).runDemo(rest);
else {
  console.error(`${owner.binary.unknownArgument(command.slice(0, 40))}\n\n${HELP}`);
  process.exitCode = 2;
}
