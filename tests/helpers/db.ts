/** A server's SQLite file, raw: what store-reads.ts and store-writes.ts run on SQLite, and the files whose subject is the SQL itself. */
import { Database } from "bun:sqlite";
import type { RunningServer } from "./server.ts";

export function query<T>(server: RunningServer, sql: string, ...params: (string | number)[]): T[] {
  const db = server.openDb();
  try {
    return db.query(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/**
 * Writes into a server's SQLite file, as retention or an older version would have left it. Waits while the server's
 * own writers hold the lock, as the service's connections do: a busy machine makes that wait real.
 */
export function writeStore(dbPath: string, sql: string, ...params: (string | number | null)[]): void {
  const db = new Database(dbPath);
  try {
    db.run("PRAGMA busy_timeout = 10000");
    db.query(sql).run(...params);
  } finally {
    db.close();
  }
}
