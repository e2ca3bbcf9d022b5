/**
 * Worker entry: checkpoints the WAL on its own connection, so that fsync never runs on the HTTP thread. A
 * passive checkpoint never waits for writers; once the WAL has grown past its limit anyway (writes that never
 * pause), a truncating one waits for them briefly and cuts the file back to zero.
 */
import { Database } from "bun:sqlite";
import { statSync } from "node:fs";

declare const self: Worker;

self.onmessage = (event: MessageEvent<{ path: string; intervalMs: number; walLimitBytes: number }>) => {
  const { path, intervalMs, walLimitBytes } = event.data;
  const db = new Database(path);
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec(`PRAGMA journal_size_limit = ${walLimitBytes}`);
  const walBytes = () => statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
  // A full disk fails every checkpoint: said when it starts and when it ends, not every second.
  let failing: string | null = null;
  setInterval(() => {
    try {
      db.exec("PRAGMA wal_checkpoint(PASSIVE)");
      if (walBytes() > walLimitBytes) db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      if (failing !== null) console.error(`[SERVER] INFO checkpoints work again after=${JSON.stringify(failing)}`);
      failing = null;
    } catch (error) {
      const reason = String(error).slice(0, 200);
      if (failing === null) console.error(`[SERVER] WARN checkpoint failed; said again only once they work error=${JSON.stringify(reason)}`);
      failing = reason;
    }
  }, intervalMs);
};
