/** Worker entry: checkpoints the WAL on its own connection, so that fsync never runs on the HTTP thread. */
import { Database } from "bun:sqlite";

declare const self: Worker;

self.onmessage = (event: MessageEvent<{ path: string; intervalMs: number }>) => {
  const db = new Database(event.data.path);
  db.exec("PRAGMA busy_timeout = 5000");
  setInterval(() => {
    try {
      db.exec("PRAGMA wal_checkpoint(PASSIVE)");
    } catch (error) {
      console.error(`[SERVER] WARN checkpoint failed error=${JSON.stringify(String(error).slice(0, 200))}`);
    }
  }, event.data.intervalMs);
};
