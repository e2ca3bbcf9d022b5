/**
 * Moves WAL checkpoints off the HTTP thread: the serving connection stops checkpointing on commit, and a
 * worker with its own connection checkpoints every `intervalMs` (a checkpoint fsyncs the database file:
 * ~20 ms that would otherwise land inside one request's commit). A worker that cannot start or dies is logged,
 * and SQLite's own autocheckpoint takes over again: the WAL never grows unchecked.
 */
import { logWarn } from "../../log.ts";
import { workerEntry } from "../../runtime-files.ts";
import type { Db } from "./open.ts";

/** SQLite's default: checkpoint on the commit that takes the WAL past this many pages. */
const AUTOCHECKPOINT_PAGES = 1000;

export function startCheckpointer(db: Db, path: string, walLimitBytes: number, intervalMs = 1000): () => void {
  const fallBack = (error: unknown) => {
    logWarn("SERVER", "ERROR checkpoint worker failed; SQLite autocheckpoint takes over", { error: String(error).slice(0, 200) });
    db.$client.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  };
  let worker: Worker;
  try {
    worker = new Worker(workerEntry("checkpoint"));
  } catch (error) {
    fallBack(error);
    return () => db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  }
  worker.onerror = (event) => {
    worker.terminate();
    fallBack(event.message);
  };
  worker.postMessage({ path, intervalMs, walLimitBytes });
  db.$client.exec("PRAGMA wal_autocheckpoint = 0");
  return () => {
    worker.terminate();
    db.$client.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  };
}
