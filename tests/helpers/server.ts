/** The real service as a child process for the server tests: the launcher shared with the demo and the benchmarks. */
import { afterAll } from "bun:test";
import { startService, type RunningService } from "../../scripts/lib/service-process.ts";

export { eventually } from "../../scripts/lib/eventually.ts";
export {
  startService as startServer,
  type RunningService as RunningServer,
  type ServiceOptions as StartOptions,
} from "../../scripts/lib/service-process.ts";

/**
 * A `start(env, dataDir?)` for one test file: every server it starts is killed and its data removed after the
 * file's tests. `defaults` go under each call's env (e.g. a short JOB_BACKOFF_MS).
 */
export function serversForThisFile(defaults: Record<string, string> = {}) {
  const started: RunningService[] = [];
  afterAll(async () => {
    for (const server of started) await server.stop("SIGKILL");
    for (const server of started) server.cleanup();
  });
  return async (env: Record<string, string> = {}, dataDir?: string): Promise<RunningService> => {
    const server = await startService({ env: { ...defaults, ...env }, ...(dataDir && { dataDir }) });
    started.push(server);
    return server;
  };
}
