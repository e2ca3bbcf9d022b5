/**
 * The service built in this test process by `createService` (src/service.ts) and served on a random loopback
 * port: the same `RunningServer` as tests/helpers/server.ts (url, dataDir, output, openDb, waitForOutput, stop,
 * cleanup) without starting a process. For tests that need no real process (no kill, no binary, no launch
 * settings): swap `serversForThisFile` from "./server.ts" for the one here. `output()` holds the service's log
 * lines (every in-process service's, while several run at once); `pid` is this process's.
 */
import { afterAll } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServiceOptions, RunningService } from "../../scripts/lib/service-process.ts";
import { loadConfig } from "../../src/config/index.ts";
import { startHttpServer } from "../../src/http/server.ts";
import { flushLog, setLogSink } from "../../src/log.ts";
import { loadNotifySetup } from "../../src/notify/setup.ts";
import { createService } from "../../src/service.ts";

export { eventually } from "../../scripts/lib/eventually.ts";
export type { RunningService as RunningServer } from "../../scripts/lib/service-process.ts";

/** The log of every service running here; lines go to each (and to no console: the test's own output stays readable). */
const logs = new Set<{ text: string }>();

function attachLog(): { text: string } {
  const log = { text: "" };
  if (logs.size === 0) setLogSink((line) => {
    for (const each of logs) each.text += `${line}\n`;
  });
  logs.add(log);
  return log;
}

function detachLog(log: { text: string }): void {
  flushLog();
  logs.delete(log);
  if (logs.size === 0) setLogSink(null);
}

export async function startInProcess(options: Pick<ServiceOptions, "env" | "dataDir"> = {}): Promise<RunningService> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "mysekai-inproc-"));
  const dbPath = join(dataDir, "ingest.sqlite");
  const config = loadConfig({ HOST: "127.0.0.1", PORT: "0", DATA_DIR: dataDir, CONFIG_DIR: join(dataDir, "config"), PIPELINE_POLL_MS: "50", ...options.env });
  const log = attachLog();
  let stopped: Promise<number> | null = null;
  const service = await createService(config, loadNotifySetup(config.notify, config.configDir, config.ownerLocale)).catch((error) => {
    detachLog(log);
    throw error;
  });
  const server = startHttpServer(service.app, config);

  const waitForOutput = async (pattern: RegExp | string, timeoutMs = 10_000): Promise<string> => {
    const find = () => (typeof pattern === "string" ? (log.text.includes(pattern) ? pattern : null) : (pattern.exec(log.text)?.[0] ?? null));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      flushLog();
      const match = find();
      if (match !== null) return match;
      if (stopped !== null) throw new Error(`service stopped before ${pattern}:\n${log.text}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${log.text}`);
      await Bun.sleep(10);
    }
  };
  return {
    url: `http://127.0.0.1:${server.port}`,
    pid: process.pid,
    dataDir,
    dbPath,
    output: () => (flushLog(), log.text),
    openDb: () => new Database(dbPath, { readonly: true, strict: true }),
    waitForOutput,
    // Any signal: a clean stop (a test that needs a kill runs a real process, tests/helpers/server.ts).
    stop: () =>
      (stopped ??= (async () => {
        await server.stop(true);
        await service.stop();
        detachLog(log);
        return 0;
      })()),
    cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** `serversForThisFile` of tests/helpers/server.ts, in-process. */
export function serversForThisFile(defaults: Record<string, string> = {}) {
  const started: RunningService[] = [];
  afterAll(async () => {
    for (const server of started) await server.stop();
    for (const server of started) server.cleanup();
  });
  return async (env: Record<string, string> = {}, dataDir?: string): Promise<RunningService> => {
    const server = await startInProcess({ env: { ...defaults, ...env }, ...(dataDir && { dataDir }) });
    started.push(server);
    return server;
  };
}

/** `startServer` of tests/helpers/server.ts, in-process (the caller stops and cleans up). */
export const startServer = startInProcess;
