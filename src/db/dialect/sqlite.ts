/** SQLite's side of the dialect layer (statements.ts): its text, its parameters, its decoding, its synchronous runner. */
import type { Db } from "../open.ts";
import { drive } from "./steps.ts";
import { decodeRows, type ColumnKind, type Flow, type Param, type Statements, type Step } from "./statements.ts";

/** PostgreSQL's `$n` as SQLite's `?n` (the same numbered parameter); `= ANY($n)` over the JSON list SQLite is given. */
export const sqliteText = (sql: string) => sql.replace(/= ANY\(\$(\d+)\)/g, "IN (SELECT value FROM json_each(?$1))").replace(/\$(\d+)/g, "?$1");

const bind = (param: Param) => (Array.isArray(param) ? JSON.stringify(param) : typeof param === "boolean" ? Number(param) : param);
const decode = (kind: ColumnKind, value: unknown) => (kind === "bool" ? value === 1 : kind === "json" ? JSON.parse(value as string) : value);

/** bun:sqlite caches each text's compiled statement (Database.query): a statement compiles once per connection. */
function execute(db: Db, step: Step): Record<string, unknown>[] {
  if (!("query" in step)) return [];
  const rows = db.$client.query(sqliteText(step.query.sql)).all(...(step.params.map(bind) as (string | number | null)[])) as Record<string, unknown>[];
  return decodeRows(rows, step.query.kinds, decode);
}

/**
 * Runs a flow in one transaction, synchronously (for SQLite's synchronous callers). IMMEDIATE: a flow reads, then
 * writes, and a deferred transaction whose snapshot another connection's commit outdated (the service beside an
 * owner CLI) fails at its first write with SQLITE_BUSY at once, which busy_timeout does not wait out.
 */
export const sqliteTransaction = <T>(db: Db, flow: Flow<T>): T => db.transaction(() => drive(flow, (step) => execute(db, step)), { behavior: "immediate" });

export function sqliteStatements(db: Db): Statements {
  return {
    all: async (query, params) => execute(db, { query: query as never, params }) as never,
    transaction: async (flow) => sqliteTransaction(db, flow()),
  };
}
