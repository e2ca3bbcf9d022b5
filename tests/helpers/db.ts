/** Looks into a server's SQLite file: reads, and the few writes a test makes under a running server. */
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

export function one<T>(server: RunningServer, sql: string, ...params: (string | number)[]): T | undefined {
  return query<T>(server, sql, ...params)[0];
}

export interface JobRow {
  id: number;
  save_id: number | null;
  report_id: number | null;
  stage: string;
  state: string;
  attempts: number;
  last_error: string | null;
}

export function jobOfSave(server: RunningServer, saveId: number): JobRow | undefined {
  return one<JobRow>(server, "SELECT * FROM jobs WHERE save_id = ?", saveId);
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
