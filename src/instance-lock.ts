/**
 * One service per DATA_DIR: a second one would requeue the first one's running jobs at start-up and push
 * twice. The lock is an exclusive SQLite lock on DATA_DIR/service.lock, held for the life of the process;
 * the kernel releases it when the process dies, however it dies (no stale pid files).
 */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "./config/parse.ts";

/** Takes the lock or throws a ConfigError saying DATA_DIR is in use; returns the release function. */
export function acquireInstanceLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lock = new Database(join(dataDir, "service.lock"), { create: true });
  try {
    lock.exec("PRAGMA busy_timeout = 0");
    lock.exec("PRAGMA locking_mode = EXCLUSIVE");
    lock.exec("BEGIN EXCLUSIVE");
  } catch {
    lock.close();
    throw new ConfigError((m) => m.dataDirInUse(dataDir));
  }
  return () => lock.close();
}
