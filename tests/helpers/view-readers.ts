/**
 * Read-only readers of a store as an owner opens it (README "Look inside the database"): SQLite's file with
 * bun:sqlite's read-only open, or the owner's own sqlite3 CLI (`sqlite3 -readonly`), and a hub's PostgreSQL in a
 * read-only session. Numbers come back as numbers on every store (PostgreSQL's bigint and numeric too).
 */
import { Database } from "bun:sqlite";
import postgres from "postgres";

export type Row = Record<string, unknown>;
export interface ViewReader {
  all(sql: string): Promise<Row[]>;
  close(): Promise<void>;
}

/** A file opened read-only, or a database already open (a changed copy, say). */
export function sqliteReader(file: string | Database): ViewReader {
  const db = typeof file === "string" ? new Database(file, { readonly: true }) : file;
  return { all: async (sql) => db.query(sql).all() as Row[], close: async () => db.close() };
}

/** The sqlite3 CLI on this machine (Debian's `sqlite3`), or null when it is missing. */
export const SQLITE_CLI = Bun.which("sqlite3");

/** The owner's CLI as the README opens it: `sqlite3 -readonly`, rows as JSON. */
export function sqliteCliReader(path: string): ViewReader {
  return {
    all: async (sql) => {
      // On its input, as typed: an argument starting with "--" (a comment) would be read as an option.
      const run = Bun.spawnSync([SQLITE_CLI!, "-readonly", "-json", "-bail", path], { stdin: Buffer.from(sql), stdout: "pipe", stderr: "pipe" });
      if (run.exitCode !== 0) throw new Error(`sqlite3 -readonly failed: ${run.stderr.toString()}`);
      const text = run.stdout.toString().trim();
      return text === "" ? [] : (JSON.parse(text) as Row[]);
    },
    close: async () => {},
  };
}

const wideNumber = { to: 20, from: [20, 1700], serialize: String, parse: (value: string) => Number(value) };

export function pgReader(url: string): ViewReader {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { default_transaction_read_only: true }, types: { wideNumber } });
  return { all: async (text) => [...(await sql.unsafe(text))] as Row[], close: () => sql.end() };
}
