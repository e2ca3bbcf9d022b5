/**
 * Settings the runtime reads before any of our code runs, so whatever starts the service sets them: `npm start`,
 * the Dockerfile, the systemd unit and scripts/lib/service-process.ts (tests, demo, benchmarks) do;
 * tests/server/launch-env.test.ts checks that they agree with this list. The one-file build reads them from
 * the environment it is started in.
 */
export const LAUNCH_ENV = {
  /**
   * Bun's allocator and resvg's (both mimalloc) return freed pages to the system at once instead of 10–100 ms
   * later, when a burst of uploads, reports or renders has already stacked the next allocations on top: peak RSS
   * 13–25 MB lower for 8–11 % more CPU a save, the pages of each map's pixmap being faulted in anew (BENCHMARKS.md,
   * issue 11, sixth and seventh steps).
   */
  MIMALLOC_PURGE_DELAY: "0",
} as const;

/** The launch settings missing (or empty) in `env`: the service still runs, with more memory. */
export function missingLaunchEnv(env: Record<string, string | undefined> = process.env): string[] {
  return Object.keys(LAUNCH_ENV).filter((name) => !env[name]);
}
