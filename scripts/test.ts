/**
 * The whole suite (`npm test`): test files spread over `bun test --parallel` workers, the slowest started first
 * (tests/timings.json), while one PostgreSQL and one Swift start beside them for the whole run; a worker that needs
 * one waits for its address (scripts/lib/shared-stores.ts), and each file still takes a database and a bucket of
 * its own. Arguments pass through to `bun test` (files, --bail, …); TEST_WORKERS sets the number of workers.
 * `bun test <file>` alone starts its own servers as before.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createMigratedTemplate, POSTGRES_MISSING, postgresServer, type SharedPostgres } from "./lib/dev-postgres.ts";
import { swiftServer, swiftSkipReason } from "./lib/dev-swift.ts";
import { publishSharedStore, SHARED_STORES_ENV } from "./lib/shared-stores.ts";

const ROOT = resolve(import.meta.dir, "..");
const workers = Number(process.env.TEST_WORKERS) || Math.max(2, cpus().length);
const shared = mkdtempSync(join(tmpdir(), "test-stores-"));
process.once("exit", () => rmSync(shared, { recursive: true, force: true }));

/** Starts a store for the run and publishes its address, or why it failed (its tests then fail saying so). */
function share<T>(name: "postgres" | "swift", start: () => Promise<T>): void {
  const began = Date.now();
  start().then(
    (ok) => {
      publishSharedStore(shared, name, { ok });
      console.log(`(the run's ${name} is up after ${((Date.now() - began) / 1000).toFixed(1)} s)`);
    },
    (error: unknown) => publishSharedStore(shared, name, { error: error instanceof Error ? error.message : String(error) }),
  );
}
// Where one is missing, nothing is published and its tests skip themselves as before (they never ask for it).
if (POSTGRES_MISSING === null) share<SharedPostgres>("postgres", async () => ({ port: (await postgresServer()).port, template: await createMigratedTemplate("migrated_template") }));
if (swiftSkipReason === null) share("swift", swiftServer);

const run = Bun.spawn([process.execPath, "test", `--parallel=${workers}`, "--no-isolate", "--timings=tests/timings.json", "--timeout", "30000", ...process.argv.slice(2)], {
  cwd: ROOT,
  env: { ...process.env, [SHARED_STORES_ENV]: shared },
  stdio: ["inherit", "inherit", "inherit"],
});
process.exit(await run.exited);
