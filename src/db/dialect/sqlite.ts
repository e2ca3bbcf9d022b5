/** SQLite's side of the dialect layer (statements.ts): its parameters, its decoding, its synchronous runner. */
import type { Database } from "bun:sqlite";
import type { Db, Tx } from "../sqlite/open.ts";
import { decodeRows, drive, type ColumnKind, type Flow, type Param, type Statements, type Step } from "./statements.ts";


const bind = (param: Param) => (Array.isArray(param) ? JSON.stringify(param) : typeof param === "boolean" ? Number(param) : param);
const decode = (kind: ColumnKind, value: unknown) => (kind === "bool" ? value === 1 : kind === "json" ? JSON.parse(value as string) : value);

/** The connection under a drizzle handle or transaction (drizzle's session, internal to it, holds it). */
const connectionOf = (handle: Db | Tx) => (handle as unknown as { session: { client: Database } }).session.client;

/** bun:sqlite caches each text's compiled statement (Database.query): a statement compiles once per connection. */
function execute(client: Database, step: Step): Record<string, unknown>[] {
  if (!("query" in step)) return [];
  const rows = client.query(step.query.sqlite).all(...(step.params.map(bind) as (string | number | null | Uint8Array)[])) as Record<string, unknown>[];
  return decodeRows(rows, step.query.kinds, decode);
}

/**
 * Runs a flow synchronously on the connection: inside the caller's transaction when `handle` is one (or the
 * caller holds one open), else each statement on its own.
 */
export function sqliteFlow<T>(handle: Db | Tx, flow: Flow<T>): T {
  const client = connectionOf(handle);
  return drive(flow, (step) => execute(client, step));
}

/**
 * Runs a flow in one transaction, synchronously (for SQLite's synchronous callers). IMMEDIATE: a flow reads, then
 * writes, and a deferred transaction whose snapshot another connection's commit outdated (the service beside an
 * owner CLI) fails at its first write with SQLITE_BUSY at once, which busy_timeout does not wait out.
 */
export const sqliteTransaction = <T>(db: Db, flow: Flow<T>): T => db.transaction(() => sqliteFlow(db, flow), { behavior: "immediate" });

export function sqliteStatements(db: Db): Statements {
  return {
    all: async (query, params) => execute(db.$client, { query: query as never, params }) as never,
    transaction: async (flow) => sqliteTransaction(db, flow()),
  };
}
