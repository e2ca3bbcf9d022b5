/** The real service as a child process for the server tests: the launcher shared with the demo and the benchmarks. */
export { eventually } from "../../scripts/lib/eventually.ts";
export {
  startService as startServer,
  type RunningService as RunningServer,
  type ServiceOptions as StartOptions,
} from "../../scripts/lib/service-process.ts";
