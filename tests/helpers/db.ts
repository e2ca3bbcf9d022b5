/** Read-only looks into a server's SQLite file. */
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
