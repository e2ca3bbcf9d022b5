/**
 * Moves WAL checkpoints off the HTTP thread: the serving connection stops checkpointing on commit, and a
 * worker with its own connection checkpoints every `intervalMs` (a checkpoint fsyncs the database file:
 * ~20 ms that would otherwise land inside one request's commit).
 */
import type { Db } from "./open.ts";

export function startCheckpointer(db: Db, path: string, walLimitBytes: number, intervalMs = 1000): () => void {
  const worker = new Worker(new URL("./checkpoint-worker.ts", import.meta.url).href);
  worker.postMessage({ path, intervalMs, walLimitBytes });
  db.$client.exec("PRAGMA wal_autocheckpoint = 0");
  return () => {
    worker.terminate();
    db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  };
}
