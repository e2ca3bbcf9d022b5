/**
 * Settings the runtime reads before any of our code runs, so whatever starts the service sets them: `npm start`,
 * the Dockerfile, the systemd unit and scripts/lib/service-process.ts (tests, demo, benchmarks) do;
 * tests/server/launch-env.test.ts checks that they agree with this list. The one-file build reads them from
 * the environment it is started in.
 */
export const LAUNCH_ENV = {
  /**
   * Bun's allocator and resvg's (both mimalloc) keep freed pages for 250 ms before giving them back. A save's
   * renders reuse the pages the last one freed instead of faulting in fresh ones: ~2,700 minor faults a save
   * instead of ~17,000 at 0 (given back at once), and ~20 % less CPU a save, more where a fault costs more.
   * Freed memory still goes back once the service is quiet for a moment, so peak RSS stays ≤ 256 MB (~20–50 MB
   * above 0); at -1 (never given back) it passed 300 MB while maps rendered (docs/benchmarks-history.md, issue 24).
   */
  MIMALLOC_PURGE_DELAY: "250",
} as const;

/** The launch settings missing (or empty) in `env`: the service still runs, with more memory. */
export function missingLaunchEnv(env: Record<string, string | undefined> = process.env): string[] {
  return Object.keys(LAUNCH_ENV).filter((name) => !env[name]);
}
