/**
 * How one test run shares one PostgreSQL and one Swift across its worker processes: scripts/test.ts starts them
 * beside the tests (not before them) and writes each one's address into a folder named by TEST_SHARED_STORES as
 * soon as it is up; a worker that needs one waits for its file. Unset (`bun test <file>`): each process starts its own.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const SHARED_STORES_ENV = "TEST_SHARED_STORES";
type Published<T> = { ok: T } | { error: string };

/** What the run's launcher published under `name`, once it has; null when this process is not in such a run. */
export async function sharedStore<T>(name: "postgres" | "swift", timeoutMs = 240_000): Promise<T | null> {
  const dir = process.env[SHARED_STORES_ENV];
  if (!dir) return null;
  const file = join(dir, `${name}.json`);
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`the run's ${name} was not up within ${timeoutMs / 1000} s (${file})`);
    await Bun.sleep(100);
  }
  const published = JSON.parse(readFileSync(file, "utf8")) as Published<T>;
  if ("error" in published) throw new Error(`the run's ${name} did not start: ${published.error}`);
  return published.ok;
}

/** Publishes a store's address (or why it failed) for the run's workers; written whole or not at all. */
export function publishSharedStore<T>(dir: string, name: "postgres" | "swift", published: Published<T>): void {
  const file = join(dir, `${name}.json`);
  writeFileSync(`${file}.tmp`, JSON.stringify(published));
  renameSync(`${file}.tmp`, file);
}
